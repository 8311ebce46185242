import { type Logger } from '@nestjs/common';

import { type SqlClient } from '../interfaces/sql-client.interface';
import { currentScopeSetting, EVERY_LOCATION, LOCATIONS_SETTING } from './database-scope';

/**
 * The role the embedded engine's session takes once migrated: PGlite's own user is a
 * superuser, whom row-level security never applies to. It owns the tables (the service
 * builds indexes on them at run time), and FORCE ROW LEVEL SECURITY subjects the owner.
 */
export const EMBEDDED_ROLE = 'context_bridge';

/** How the clients scope statements: the current work's setting, or nothing when off. */
export function statementScope(enabled: boolean): (() => string) | undefined {
  return enabled ? currentScopeSetting : undefined;
}

/**
 * Off: every session starts with the every-location value, so the policies (still in the
 * schema) let everything through without a setting per statement. On: nothing, so a
 * statement the service did not scope sees no row.
 */
export function unscopedSession(enabled: boolean): Record<string, string> {
  return enabled ? {} : { [LOCATIONS_SETTING]: EVERY_LOCATION };
}

/**
 * Once migrated (as the engine's own user): on PGlite, the session becomes
 * {@link EMBEDDED_ROLE}, owner of every table; on a server, a role that escapes the policies
 * (superuser, BYPASSRLS) is reported, as the operator must change it (docs/operations.md).
 */
export async function enforceRowSecurity(client: SqlClient, logger: Logger): Promise<void> {
  if (client.engine === 'pglite') {
    await client.exec(EMBEDDED_ROLE_SETUP);
    return;
  }
  const [role] = await client.query<{ bypass: boolean }>(
    `SELECT rolsuper OR rolbypassrls AS bypass FROM pg_roles WHERE rolname = current_user`,
  );
  if (role?.bypass) {
    logger.warn(
      'row-level security is on, but the database role is a superuser or has BYPASSRLS, ' +
        'which the policies never apply to: connect as the tables’ owner without either ' +
        '(docs/operations.md, "Database role")',
    );
  }
}

const EMBEDDED_ROLE_SETUP = `
  DO $$ DECLARE t record; BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${EMBEDDED_ROLE}') THEN
      CREATE ROLE ${EMBEDDED_ROLE} NOLOGIN NOSUPERUSER NOBYPASSRLS;
    END IF;
    FOR t IN SELECT c.oid::regclass AS name FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
        AND c.relowner <> '${EMBEDDED_ROLE}'::regrole LOOP
      EXECUTE format('ALTER TABLE %s OWNER TO ${EMBEDDED_ROLE}', t.name);
    END LOOP;
  END $$;
  GRANT ALL ON SCHEMA public TO ${EMBEDDED_ROLE};
  SET ROLE ${EMBEDDED_ROLE};`;
