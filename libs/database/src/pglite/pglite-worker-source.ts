import { SESSION_SCOPE_STATEMENT } from '../row-security/database-scope';

/**
 * Source of the embedded-database worker, run with `new Worker(source, { eval: true })` (the
 * same code from `dist/`, from ts sources under jest, and from the CLI; module paths arrive
 * resolved from the main thread). PGlite is synchronous WASM: on the main thread every query
 * stalls HTTP and timers, so it lives here and answers messages.
 *
 * Protocol (main → worker): `{ id, op, ... }` with op `open` (dataDir, settings), `query` /
 * `execute` / `exec` / `result` (sql, params, tx?; `result` answers rows and rowCount, for
 * TypeORM), `prepared` (sql, params), `begin` / `commit` / `rollback` (tx), `close`; and
 * `cancel` (target: the id of a call its caller gave up on: dropped if it has not started,
 * rolled back if it is a `begin` that has).
 * Worker → main: `{ id, value }` or `{ id, error: { message, code, ... } }`, one per op but
 * `cancel` (a dropped call is answered with an error nobody reads).
 */
export const PGLITE_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite, protocol, parse } = require(workerData.pglitePath);
const { vector } = require(workerData.vectorPath);
const SESSION_SCOPE_STATEMENT = ${JSON.stringify(SESSION_SCOPE_STATEMENT)};

let db;
/** Open transactions: PGlite holds its query lock until the callback's promise settles. */
const transactions = new Map();
/**
 * The open transaction of each begin call, by the call's id: a cancel of a begin that has
 * already started (its caller gave up as the worker started it, the answer and the cancel
 * crossing) rolls it back, as nobody else would ever end it.
 */
const begun = new Map();
/**
 * Named statements of hot reads, by SQL text. PGlite's query() parses and plans every call
 * (about 40% of the /context search statement) in six protocol round trips; a named
 * statement is planned once and then bound and executed in one round trip. Binary
 * parameters (a Uint8Array, e.g. a pgvector in its binary format) are sent as such.
 */
const prepared = new Map();
const MAX_PREPARED = 64;
const { serialize } = protocol;
const send = (parts) => db.execProtocol(Buffer.concat(parts), { syncToFs: false });

/**
 * The statement for sql: named and kept, or unnamed (re-parsed) once the cache is full or
 * when it is not a hot read (keep false).
 */
async function statementFor(sql, keep = true) {
  const known = prepared.get(sql);
  if (known) {
    return { name: known.name, types: known.types, parse: [] };
  }
  const name = keep && prepared.size < MAX_PREPARED ? 'cb_' + (prepared.size + 1) : '';
  const described = await send([
    serialize.parse({ name, text: sql }),
    serialize.describe({ type: 'S', name }),
    serialize.sync(),
  ]);
  const types = parse.parseDescribeStatementResults(described.messages);
  if (name) {
    prepared.set(sql, { name, types });
    return { name, types, parse: [] };
  }
  return { name, types, parse: [serialize.parse({ name, text: sql })] };
}

/** Whether this session has parsed the named scope statement. */
let scopeParsed = false;
/**
 * The app.locations value this session holds outside transactions (undefined: none yet, or
 * not known after a failed statement). Only this worker sends statements on the session, and
 * every one outside a transaction carries its scope (row-level security on), so it knows:
 * a statement whose scope the session holds is sent alone, sparing the engine the scope
 * statement on nearly every statement (docs/benchmarks.md, "Row-level security on /context").
 * A transaction sets its own scope (is_local), which its end gives back to this value.
 */
let sessionScope;

/**
 * Row-level security (scope: the app.locations value): unless the session holds it, the
 * scope statement goes before the statement, up to one Sync, so it runs in the same implicit
 * transaction: it stays set if the statement succeeds and is undone with it if it fails.
 */
function scopeMessages(scope) {
  if (scope === undefined || scope === sessionScope) return [];
  const parsing = scopeParsed
    ? []
    : [serialize.parse({ name: 'cb_scope', text: SESSION_SCOPE_STATEMENT })];
  scopeParsed = true;
  return [
    ...parsing,
    serialize.bind({ statement: 'cb_scope', values: [scope] }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
  ];
}

/**
 * Same locks as query(): PGlite's transaction lock (a read waits for someone's open
 * transaction rather than running inside it), then its query lock. Answers the statement's
 * result (rows, affectedRows); keep false for statements that are not hot reads.
 */
function runPrepared(sql, params, scope, keep = true) {
  return db._runExclusiveTransaction(() =>
    db.runExclusive(async () => {
      const statement = await statementFor(sql, keep);
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        if (ArrayBuffer.isView(value)) return value;
        const serializer = db.serializers[statement.types[i]];
        return serializer ? serializer(value) : String(value);
      });
      const scoping = scopeMessages(scope);
      if (scoping.length) {
        sessionScope = undefined; // unknown until the statement's transaction commits
      }
      const result = await send([
        ...scoping,
        ...statement.parse,
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]);
      if (scoping.length) {
        sessionScope = scope;
      }
      return parse.parseResults(result.messages, db.parsers).at(-1);
    }),
  );
}

/**
 * Work outside a transaction waits here, in arrival order, rather than in PGlite's own lock
 * queue, and it also waits here while a transaction is open (PGlite would hold it at its
 * lock): a call cancelled meanwhile (its caller's deadline passed) is then dropped before it
 * runs, instead of spending the single session on an answer nobody reads. Statements inside
 * a transaction, commit and rollback bypass this queue, so a transaction always finishes.
 */
let tail = Promise.resolve();
/** Settles when the open transaction has ended (undefined: none is open). */
let openTx;
/** Ids of queued work not yet finished, and those of them whose caller gave up. */
const live = new Set();
const cancelled = new Set();
const dropped = () => Object.assign(new Error('cancelled before it ran'), { name: 'AbortError' });

function inOrder(id, work) {
  live.add(id);
  const run = tail.then(async () => {
    while (openTx) {
      await openTx;
    }
    if (cancelled.has(id)) {
      throw dropped();
    }
    return work();
  });
  const done = () => {
    live.delete(id);
    cancelled.delete(id);
  };
  tail = run.then(done, done);
  return run;
}

const rowCount = (r) => r.rowCount ?? r.affectedRows ?? 0;
/** A script's first statement scoping the rest (one implicit transaction); a literal. */
const scopeScript = (scope) =>
  "SELECT set_config('app.locations', '" + scope.replace(/'/g, "''") + "', true); ";
const errorFields = (e) => {
  const out = { message: String((e && e.message) || e), name: (e && e.name) || 'Error' };
  for (const key of ['code', 'detail', 'severity', 'constraint', 'table', 'column', 'schema']) {
    if (e && typeof e[key] === 'string') out[key] = e[key];
  }
  return out;
};

async function handle(msg) {
  switch (msg.op) {
    case 'open':
      db = await PGlite.create({
        dataDir: msg.dataDir,
        extensions: { vector },
        startParams: msg.sharedBuffersMb
          ? [...PGlite.defaultStartParams, '-c', 'shared_buffers=' + msg.sharedBuffersMb + 'MB']
          : undefined,
      });
      await db.exec(msg.settings);
      return null;
    case 'query':
    case 'execute':
    case 'result':
    case 'exec': {
      const target = msg.tx === undefined ? db : transactions.get(msg.tx).tx;
      if (msg.op === 'exec') {
        await target.exec(msg.scope === undefined ? msg.sql : scopeScript(msg.scope) + msg.sql);
        return null;
      }
      const result =
        msg.scope === undefined
          ? await target.query(msg.sql, msg.params)
          : await runPrepared(msg.sql, msg.params, msg.scope, false);
      if (msg.op === 'result') return { rows: result.rows, rowCount: rowCount(result) };
      return msg.op === 'query' ? result.rows : rowCount(result);
    }
    case 'prepared':
      return (await runPrepared(msg.sql, msg.params, msg.scope)).rows;
    case 'begin':
      return new Promise((started, failed) => {
        const entry = {};
        entry.done = db.transaction(
          (tx) =>
            new Promise((commit, rollback) => {
              Object.assign(entry, { tx, commit, rollback });
              if (cancelled.has(msg.id)) {
                // Its caller gave up while it waited: nobody would ever end it.
                rollback(dropped());
                return;
              }
              transactions.set(msg.tx, entry);
              entry.beginId = msg.id;
              begun.set(msg.id, msg.tx);
              const ended = entry.done.then(
                () => undefined,
                () => undefined,
              );
              openTx = ended;
              void ended.then(() => {
                if (openTx === ended) openTx = undefined;
              });
              started(null);
            }),
        );
        entry.done.catch((error) =>
          entry.tx && !cancelled.has(msg.id) ? undefined : failed(error),
        );
      });
    case 'commit':
      await end(msg.tx, true);
      return null;
    case 'rollback':
      await end(msg.tx, false);
      return null;
    case 'close':
      await db.close();
      return null;
    default:
      throw new Error('unknown op ' + msg.op);
  }
}

/**
 * Ends an open transaction. One already ended rolls back to a no-op (its begin was given up
 * and the cancel rolled it back); committing it is an error, as its work is gone.
 */
async function end(txId, commit) {
  const t = transactions.get(txId);
  if (!t) {
    if (commit) throw new Error('the transaction was rolled back: its begin was given up');
    return;
  }
  transactions.delete(txId);
  begun.delete(t.beginId);
  if (commit) {
    t.commit();
    await t.done;
  } else {
    t.rollback(new Error('rolled back'));
    await t.done.catch(() => undefined);
  }
}

/** Everything that takes PGlite's transaction lock queues (see inOrder). */
const QUEUED = new Set(['query', 'execute', 'result', 'exec', 'prepared', 'begin', 'close']);

parentPort.on('message', (msg) => {
  if (msg.op === 'cancel') {
    if (begun.has(msg.target)) {
      void end(begun.get(msg.target), false);
    } else if (live.has(msg.target)) {
      cancelled.add(msg.target);
    }
    return;
  }
  const queued = QUEUED.has(msg.op) && msg.tx === undefined;
  (queued ? inOrder(msg.id, () => handle(msg)) : handle(msg)).then(
    (value) => parentPort.postMessage({ id: msg.id, value }),
    (error) => parentPort.postMessage({ id: msg.id, error: errorFields(error) }),
  );
});
`;
