import { type Migration } from './migration';

/**
 * Migration 15's per-contact policy function was VOLATILE (it switches `app.locations` to
 * look past the caller's scope and switches it back). A volatile function anywhere in a
 * statement's policies stops the planner inlining the CTEs that read those tables: every
 * search CTE (dense, lx_stats, lx_post) was materialized, and the cross-contact search joined
 * its postings in an order that re-ran the statistics aggregate once per posting (+74% CPU on
 * PGlite for an unbound caller, whose policies pass every row). Its effect is nil by the time
 * it returns (the setting is restored) and it writes nothing, so STABLE is what it is; it
 * stays PARALLEL UNSAFE (set_config is refused in a parallel worker).
 */
export const rowSecurityStableContactCheck: Migration = {
  name: 'RowSecurityStableContactCheck1700000000017',
  up: (tx) => tx.exec(`ALTER FUNCTION rls_contact_visible(text, text[]) STABLE`),
};
