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
 * Which idle worker runs a batch of `lane`: `/context` prefers a foreground worker, other
 * lanes a background one; either takes what is idle when its kind is not.
 */
export function pickWorker<W>(
  idle: readonly W[],
  lane: EmbeddingLane,
  roleOfWorker: (worker: W) => WorkerRole,
): W | undefined {
  const wanted: WorkerRole = lane === 'context' ? 'foreground' : 'background';
  return idle.find((w) => roleOfWorker(w) === wanted) ?? idle[0];
}
