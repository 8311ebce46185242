import { type PoolClient, Query, type QueryConfig, type QueryResult } from 'pg';

import { type PgShapedConnection, type PgShapedResult } from '../interfaces/orm-pool.interface';
import { SCOPE_STATEMENT } from '../row-security/database-scope';

/** The wire-protocol calls of node-postgres' connection this query makes itself. */
interface WireConnection {
  parse(message: { text: string; name: string; types: unknown[] }): void;
  bind(message: { portal: string; statement: string; values: unknown[] }): void;
  execute(message: { portal: string; rows: number }): void;
}

/** What of node-postgres' `Query` this subclass overrides (not in its type definitions). */
interface QueryHooks {
  requiresPreparation(): boolean;
  prepare(connection: WireConnection): void;
  handleDataRow(message: unknown): void;
  handleCommandComplete(message: unknown, connection: WireConnection): void;
}

type Callback = (error: Error | undefined, result: QueryResult) => void;
const BaseQuery = Query as unknown as new (
  config: QueryConfig,
  values: undefined,
  callback: Callback,
) => QueryHooks;

/** The scope statement's name on a connection: parsed once there, then only bound. */
const SCOPE_NAME = 'cb_scope';

/**
 * Connections (node-postgres' `connection` objects) that hold the parsed scope statement.
 * An unnamed one was parsed and planned again before every statement (0.09 of its 0.15 ms
 * of server time); a protocol-level prepared statement outlives failed transactions, and a
 * connection that is replaced is a new object, so this never names one the server lacks.
 */
const scopeParsed = new WeakSet<object>();

/**
 * One statement preceded, in the same round trip, by the {@link SCOPE_STATEMENT} that scopes
 * its transaction: both are sent before one Sync, and the extended protocol runs everything
 * up to a Sync in one implicit transaction, so the setting holds for the statement and is
 * gone after it (`is_local`). A `BEGIN` sent this way opens a transaction that keeps it to
 * its end. The scope statement's row and completion are not part of the result.
 */
class ScopedQuery extends BaseQuery {
  private scoping = true;

  constructor(
    config: QueryConfig,
    private readonly setting: string,
    callback: Callback,
  ) {
    super(config, undefined, callback);
  }

  override requiresPreparation(): boolean {
    return true;
  }

  override prepare(connection: WireConnection): void {
    if (!scopeParsed.has(connection)) {
      connection.parse({ text: SCOPE_STATEMENT, name: SCOPE_NAME, types: [] });
    }
    connection.bind({ portal: '', statement: SCOPE_NAME, values: [this.setting] });
    connection.execute({ portal: '', rows: 0 });
    super.prepare(connection);
  }

  override handleDataRow(message: unknown): void {
    if (!this.scoping) {
      super.handleDataRow(message);
    }
  }

  override handleCommandComplete(message: unknown, connection: WireConnection): void {
    if (this.scoping) {
      // Its completion proves its parse: from now on this connection only binds it.
      scopeParsed.add(connection);
      this.scoping = false;
      return;
    }
    super.handleCommandComplete(message, connection);
  }
}

/** Runs `config` on `client` in a transaction scoped to `setting` (see {@link ScopedQuery}). */
export function scopedQuery(
  client: Pick<PoolClient, 'query'>,
  config: QueryConfig,
  setting: string,
): Promise<QueryResult> {
  return new Promise((resolve, reject) => {
    const query = new ScopedQuery(config, setting, (error, result) =>
      error ? reject(error) : resolve(result),
    );
    void client.query(query as unknown as QueryConfig);
  });
}

const BEGIN = /^\s*(START\s+TRANSACTION|BEGIN)\b/i;
const END = /^\s*(COMMIT|END|ROLLBACK|ABORT)\s*;?\s*$/i;

/**
 * A pooled connection as TypeORM sees it, every statement scoped: outside a transaction each
 * one runs in its own scoped implicit transaction; a transaction's `START TRANSACTION` is
 * sent scoped, so its statements keep the setting to its end. `setting` is read per
 * statement, from the caller's context.
 */
export function scopedOrmConnection(client: PoolClient, setting: () => string): PgShapedConnection {
  let inTransaction = false;
  return {
    query: async (sql, params) => {
      if (inTransaction) {
        inTransaction = !END.test(sql);
        return (await client.query(sql, params)) as unknown as PgShapedResult;
      }
      const result = await scopedQuery(client, { text: sql, values: params }, setting());
      inTransaction = BEGIN.test(sql);
      return result as unknown as PgShapedResult;
    },
    on: (event, listener) => client.on(event as 'notice', listener),
    removeListener: (event, listener) => client.removeListener(event, listener),
  };
}
