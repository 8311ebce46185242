import { type EmbeddingLane } from '../interfaces/embedding-provider.interface';

/**
 * `foreground` runs at normal priority; `background` at `BACKGROUND_THREAD_NICE`
 * (@app/common). Nice only matters when threads compete for a core: then the kernel runs the first worker (where
 * `/context` batches go), the HTTP thread and the database ahead of a flood's batches on the
 * others; on an idle box they all run at full speed. Lowering a thread's own priority needs no
 * privilege.
 */
export type WorkerRole = 'foreground' | 'background';

/** The role of the `index`-th worker of `total`: one foreground, the rest background. */
export function roleOf(index: number, total: number): WorkerRole {
  return index === 0 || total === 1 ? 'foreground' : 'background';
}

/** The query lane's state when one of its batches is dispatched ({@link pickWorker}). */
export interface QueryLoad {
  /** `/context` has queried within the lane queue's `CONTEXT_QUIET_MS`. */
  contextLive: boolean;
  /** Texts in the batch being dispatched. */
  batch: number;
  /** Query texts still queued, and query batches running, besides this one. */
  queued: number;
  running: number;
}

/**
 * Whether a `query` batch (`/search`, MCP, `/chat`, `/relevance`) may take the foreground
 * worker: while `/context` is quiet, or when it is a lone query (one text, nothing else of its
 * lane queued or running). At nice 10 a lone `/search` ran behind V8's helper threads and
 * other processes (c1 p50 28.4 against 21.2 ms, loaded box). A flood keeps its lane busy, so
 * its batches stay on background workers and yield to `/context`'s under contention.
 */
export const queryMayRunForeground = (load: QueryLoad): boolean =>
  !load.contextLive || (load.batch === 1 && load.queued === 0 && load.running === 0);

/**
 * Which idle worker runs a batch of `lane`: `/context` prefers a foreground worker, bulk a
 * background one, `query` the foreground one when `queryForeground`
 * ({@link queryMayRunForeground}); each takes what is idle when its kind is not.
 */
export function pickWorker<W>(
  idle: readonly W[],
  lane: EmbeddingLane,
  roleOfWorker: (worker: W) => WorkerRole,
  queryForeground = false,
): W | undefined {
  const wanted: WorkerRole =
    lane === 'context' || (lane === 'query' && queryForeground) ? 'foreground' : 'background';
  return idle.find((w) => roleOfWorker(w) === wanted) ?? idle[0];
}
