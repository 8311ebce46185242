import { bytesPerWindow } from './scale-db-watch';
import { type ScaleGrower } from './scale-grow';

/**
 * Windows between two entries of a load's cost curve: ten entries per 100k, ten per 1M.
 * The rate of each stretch says how the cost of a window grows with the store.
 */
const segmentOf = (target: number) => Math.max(1000, Math.round(target / 10 / 1000) * 1000);

/** `BENCH_SCALE_BULK_WRITERS` (default 1; 2 uses both cores of a quiet 2-core box). */
const WRITERS = Math.min(
  8,
  Math.max(1, Math.floor(Number(process.env.BENCH_SCALE_BULK_WRITERS) || 1)),
);

export interface BulkLoadReport {
  path: 'bulk (ScaleGrower.append, every index live)';
  /** Appends running at once (`BENCH_SCALE_BULK_WRITERS`). */
  writers: number;
  windows: number;
  messages: number;
  seconds: number;
  windows_per_s: number;
  messages_per_s: number;
  /** Each stretch of the load: the store's size at its end and its own rates. */
  segments: Array<{ windows: number; windows_per_s: number; messages_per_s: number }>;
  /** The last stretch's window rate over the first's: how a window's cost grew with size. */
  last_over_first: number | null;
}

/**
 * Grows the store to `target` windows the fast way, for issue 42's protocol at 1M: the same
 * write path as `ScaleGrower.growTo` (the service's own message, ledger and window inserts,
 * postings and statistics triggers; vectors from the bench's instant embedder, as the
 * issue's protocol uses an instant one), but with **every index live** and nothing run after
 * (no index rebuild, VACUUM, ANALYZE or per-contact index build): the store is left as an
 * import over `POST /ingest/conversations` leaves it, minus the HTTP, JSON, validation and
 * redaction of each request, in rounds of ~9,000 windows instead of the service's groups of
 * 32 conversations. The corpus is deterministic, so a bulk-loaded store and an HTTP-grown
 * one hold the same conversations.
 */
export async function bulkLoad(
  grower: ScaleGrower,
  target: number,
  dimension: number,
  log: (line: string) => void,
  writers = WRITERS,
): Promise<BulkLoadReport> {
  const t0 = performance.now();
  const before = await grower.windows();
  let windows = before;
  let messages = 0;
  const segments: BulkLoadReport['segments'] = [];
  const every = segmentOf(target);
  let mark = { t: t0, windows, messages };
  const writer = async () => {
    while (windows < target) {
      const added = await grower.append(grower.stepToward(target, windows), dimension, log);
      messages += added.messages;
      windows = await grower.windows();
      if (Math.floor(windows / every) > Math.floor(mark.windows / every) || windows >= target) {
        const now = performance.now();
        const seconds = (now - mark.t) / 1000;
        segments.push({
          windows,
          windows_per_s: Math.round((windows - mark.windows) / seconds),
          messages_per_s: Math.round((messages - mark.messages) / seconds),
        });
        log(
          `bulk load: ${windows} windows, ${segments[segments.length - 1].windows_per_s} windows/s`,
        );
        mark = { t: now, windows, messages };
      }
    }
  };
  // Writers > 1 keep the database busy on more than one core (a server only; PGlite has one
  // session). Their per-contact statistics upserts lock rows in key order: no deadlock.
  await Promise.all(Array.from({ length: writers }, () => writer()));
  const seconds = (performance.now() - t0) / 1000;
  const first = segments[0]?.windows_per_s;
  const last = segments[segments.length - 1]?.windows_per_s;
  return {
    path: 'bulk (ScaleGrower.append, every index live)',
    writers,
    windows: windows - before,
    messages,
    seconds: Number(seconds.toFixed(1)),
    windows_per_s: seconds > 0 ? Math.round((windows - before) / seconds) : 0,
    messages_per_s: seconds > 0 ? Math.round(messages / seconds) : 0,
    segments,
    last_over_first: segments.length > 1 && first ? Number((last / first).toFixed(2)) : null,
  };
}

/**
 * `BENCH_SCALE_PROTOCOL=bulk-load`: the loader to `target`, then bytes per window by table and
 * index; with `BENCH_SCALE_REINDEX=1` again after a REINDEX, which says what the page-split
 * slack of inserts in random key order costs (what an operator's REINDEX would take back).
 */
export async function measureBulkLoad(
  grower: ScaleGrower,
  target: number,
  dimension: number,
  log: (line: string) => void,
) {
  const load = await bulkLoad(grower, target, dimension, log);
  const windows = await grower.windows();
  const bytes = await bytesPerWindow(grower.db, windows);
  if (!process.env.BENCH_SCALE_REINDEX) {
    return { protocol: 'bulk-load', step: target, load, bytes };
  }
  for (const table of [
    'podium_conversations_terms',
    'lexical_contact_term_stats',
    'conversation_messages',
  ]) {
    await grower.db.transaction((tx) =>
      tx.exec(`SET LOCAL statement_timeout = 0; REINDEX TABLE ${table}`),
    );
  }
  return {
    protocol: 'bulk-load',
    step: target,
    load,
    bytes,
    bytes_after_reindex: await bytesPerWindow(grower.db, windows),
  };
}
