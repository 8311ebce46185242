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

/**
 * Which idle worker runs a batch of `lane`: `/context` prefers a foreground worker, bulk a
 * background one; either takes what is idle when its kind is not. The other live routes
 * (`query`) prefer a background worker only while `/context` is calling (`contextLive`), so
 * its worker stays free; otherwise the foreground one: at nice 10 a lone `/search` ran behind
 * V8's helper threads and other processes (c1 p50 28.4 against 21.2 ms on a loaded box).
 */
export function pickWorker<W>(
  idle: readonly W[],
  lane: EmbeddingLane,
  roleOfWorker: (worker: W) => WorkerRole,
  contextLive = true,
): W | undefined {
  const wanted: WorkerRole =
    lane === 'context' || (lane === 'query' && !contextLive) ? 'foreground' : 'background';
  return idle.find((w) => roleOfWorker(w) === wanted) ?? idle[0];
}
