import { ConfigurationError, DomainError } from '@app/common';
import {
  assertIndexableDimension,
  type Database,
  readStoreModel,
  type SqlExecutor,
  type StoreModel,
} from '@app/database';
import { toVectorLiteral } from '@app/vector';

import { resweepSwitch } from './reembed-resweep';
import {
  addShadowColumns,
  buildShadowIndexes,
  countPending,
  holdWriters,
  pendingRows,
  shadowColumnType,
  switchColumns,
  VECTOR_TABLES,
  writeTargetVectors,
} from './reembed-schema';

/** Rows embedded and written per batch; the CLI's `--batch` is bounded by this. */
export const REEMBED_MAX_BATCH = 2048;
/**
 * Catch-up passes take the rows the service wrote during the last one; once fewer than a
 * batch remain, the switch transaction fills them while writers wait. A store that grows
 * faster than the target embeds is refused after this many passes, never locked for long.
 */
const MAX_CATCH_UP_PASSES = 20;
const FIRST_ID = '00000000-0000-0000-0000-000000000000';

/** After `workedMs` at `duty` percent, the rest that keeps the average there (none at 100). */
function rest(workedMs: number, duty = 100): Promise<void> {
  const ms = Math.min(10_000, (workedMs * (100 - duty)) / Math.max(1, duty));
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** Stable codes of a refused reembed, one per cause. */
export class ReembedError extends DomainError {
  constructor(
    code: 'reembed_running' | 'reembed_conflict' | 'reembed_unsupported',
    message: string,
  ) {
    super(code, message, code === 'reembed_unsupported' ? 400 : 409);
  }
}

export type ReembedPhase = 'backfill' | 'index' | 'catch-up' | 'switch';

export interface ReembedProgress {
  phase: ReembedPhase;
  table: string;
  /** Rows of `table` given a target vector by this run so far. */
  done: number;
  /** Rows of `table` that were pending when its pass started. */
  total: number;
}

export interface ReembedReport {
  from: StoreModel;
  to: StoreModel;
  /** Rows this run embedded (a resumed run counts only what was left). */
  embedded: number;
  resumed: boolean;
  elapsed_ms: number;
  /** Rows around a same-size switch embedded again (see {@link resweepSwitch}). */
  swept: number;
  /** Where the time went: backfill, index build, catch-up passes plus the switch (and sweep). */
  phases_ms: { backfill: number; index: number; switch: number };
}

export interface ReembedOptions {
  database: Database;
  target: StoreModel;
  /** The target model: texts to vectors of `target.dimension`. */
  embed(texts: string[]): Promise<number[][]>;
  batch: number;
  /**
   * Share of the time the backfill works, in percent (100: flat out). Between batches it
   * rests in proportion, leaving the serving replicas' database and CPU the rest.
   */
  duty?: number;
  onProgress?(progress: ReembedProgress): void;
}

/**
 * Moves the store to `target` while it serves: a shadow column per vector table, backfilled
 * in batches (resumable: what is left is what is still NULL), its HNSW index, catch-up passes
 * over what the service wrote meanwhile, then one transaction that fills the last rows and
 * switches (see {@link switchColumns}). One run at a time across replicas.
 */
export async function reembed(options: ReembedOptions): Promise<ReembedReport> {
  const { database, target } = options;
  assertIndexableDimension(target.dimension);
  const started = Date.now();
  // The leader lock is a transaction's, which CREATE INDEX CONCURRENTLY would wait for
  // forever: the index is built between the two leading phases, under its own lock.
  const filled = await leading(database, async () => {
    const from = (await readStoreModel(database)) as StoreModel;
    const resumed = await claim(database, from, target);
    let embedded = 0;
    for (const table of VECTOR_TABLES) {
      embedded += await backfill(options, table, 'backfill');
    }
    return { from, resumed, embedded };
  });
  const indexStart = Date.now();
  await buildShadowIndexes(database, target);
  const switchStart = Date.now();
  const switched = await leading(database, async () => {
    const [run] = await database.query<StoreModel>(
      `SELECT model, dimension FROM embedding_reembed`,
    );
    if (!run || run.model !== target.model || run.dimension !== target.dimension) {
      throw new ReembedError(
        'reembed_conflict',
        'The run was finished or replaced by another reembed while its index was built.',
      );
    }
    return catchUpAndSwitch(options);
  });
  // Same size: stale replicas' writes were not refused, so the rows around the switch are redone.
  const swept =
    filled.from.dimension === target.dimension
      ? await resweepSwitch(options, switched.switchedAt)
      : 0;
  return {
    from: filled.from,
    to: target,
    embedded: filled.embedded + switched.embedded,
    swept,
    resumed: filled.resumed,
    elapsed_ms: Date.now() - started,
    phases_ms: {
      backfill: indexStart - started,
      index: switchStart - indexStart,
      switch: Date.now() - switchStart,
    },
  };
}

async function leading<T>(database: Database, work: () => Promise<T>): Promise<T> {
  const outcome = await database.whileLeading('reembed', work);
  if (!outcome.ran) {
    throw new ReembedError(
      'reembed_running',
      'Another reembed is running against this store; it resumes where it is, so wait for it.',
    );
  }
  return outcome.value;
}

/**
 * Passes over the rows the service wrote meanwhile until fewer than a batch are left, then
 * the transaction that fills those while writers wait and switches the columns.
 */
async function catchUpAndSwitch(
  options: ReembedOptions,
): Promise<{ embedded: number; switchedAt: string }> {
  const { database, target } = options;
  let embedded = 0;
  for (let pass = 0; ; pass++) {
    const pending = await Promise.all(VECTOR_TABLES.map((t) => countPending(database, t)));
    if (pending.every((n) => n <= options.batch)) {
      break;
    }
    if (pass === MAX_CATCH_UP_PASSES) {
      throw new ReembedError(
        'reembed_conflict',
        `Writes outpace the target embedder (${pending.join('/')} rows still pending after ` +
          `${pass} passes); run reembed again at a quieter time (it resumes).`,
      );
    }
    for (const table of VECTOR_TABLES) {
      embedded += await backfill(options, table, 'catch-up');
    }
  }
  const switchedAt = await database.transaction(async (tx) => {
    await holdWriters(tx);
    for (const table of VECTOR_TABLES) {
      embedded += await backfill({ ...options, database: tx }, table, 'switch');
    }
    await switchColumns(tx, target);
    const [at] = await tx.query<{ at: string }>(`SELECT now()::text AS at`);
    return at?.at ?? new Date().toISOString();
  });
  return { embedded, switchedAt };
}

/**
 * Records the run (or finds the one a kill left) and adds the shadow columns. A run left for
 * another model, or a shadow column of another size, is refused: its vectors are not ours.
 */
async function claim(db: Database, from: StoreModel, target: StoreModel): Promise<boolean> {
  if (from.model === target.model && from.dimension === target.dimension) {
    throw new ConfigurationError(
      `The store is already on ${target.model} (${target.dimension}-d); nothing to reembed.`,
    );
  }
  return db.transaction(async (tx) => {
    const inserted = await tx.execute(
      `INSERT INTO embedding_reembed (provider, model, dimension) VALUES ($1, $2, $3)
       ON CONFLICT (singleton) DO NOTHING`,
      [target.provider, target.model, target.dimension],
    );
    const [run] = await tx.query<StoreModel>(
      `SELECT provider, model, dimension FROM embedding_reembed`,
    );
    if (run && (run.model !== target.model || run.dimension !== target.dimension)) {
      throw new ReembedError(
        'reembed_conflict',
        `A reembed to ${run.model} (${run.dimension}-d) was started and not finished; run it ` +
          `again with that model to finish it.`,
      );
    }
    await assertShadowSize(tx, target);
    await addShadowColumns(tx, target);
    return inserted === 0;
  });
}

async function assertShadowSize(tx: SqlExecutor, target: StoreModel): Promise<void> {
  for (const table of VECTOR_TABLES) {
    const type = await shadowColumnType(tx, table);
    if (type !== null && !type.endsWith(`(${target.dimension})`)) {
      throw new ReembedError(
        'reembed_conflict',
        `${table} has a shadow column ${type} of another reembed; it does not fit ` +
          `${target.dimension}-d vectors.`,
      );
    }
  }
}

/** One pass over `table`'s rows without a target vector, in id order. */
async function backfill(
  options: Omit<ReembedOptions, 'database'> & { database: SqlExecutor },
  table: string,
  phase: ReembedPhase,
): Promise<number> {
  const { database: db, batch } = options;
  const total = await countPending(db, table);
  let done = 0;
  let after = FIRST_ID;
  options.onProgress?.({ phase, table, done, total });
  for (;;) {
    const rows = await pendingRows(db, table, after, batch);
    if (rows.length === 0) {
      return done;
    }
    const batchStart = Date.now();
    const vectors = await options.embed(rows.map((r) => r.content));
    if (vectors.some((v) => v.length !== options.target.dimension)) {
      throw new ConfigurationError(
        `The target embedder returned vectors of another size than ${options.target.dimension}.`,
      );
    }
    done += await writeTargetVectors(db, table, rows, vectors.map(toVectorLiteral));
    after = rows[rows.length - 1].id;
    options.onProgress?.({ phase, table, done, total: Math.max(total, done) });
    await rest(Date.now() - batchStart, phase === 'switch' ? 100 : options.duty);
  }
}
