import { SlotQueue } from '@app/common';

/**
 * Background statements' turn on PGlite's one session. The worker runs statements first in,
 * first out, so a burst of background work (a `/chat` flood's knowledge-base searches) would
 * sit ahead of every live statement; here at most `maxInWorker` background statements (or
 * transactions) are in the worker at once and the rest wait on this side, so a live statement
 * queues behind at most that many.
 */
export class BackgroundLane {
  private readonly slots: SlotQueue;

  constructor(maxInWorker = 1) {
    this.slots = new SlotQueue(maxInWorker);
  }

  /**
   * Resolves with a release function once the caller may post; `signal` aborting while it
   * waits rejects with the signal's reason and leaves the queue.
   */
  admit(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) {
      return Promise.reject(signal.reason as Error);
    }
    const release = this.slots.tryTake();
    if (release) {
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const leave = this.slots.wait((granted) => {
        signal.removeEventListener('abort', onAbort);
        resolve(granted);
      });
      const onAbort = () => {
        leave();
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * {@link admit} within a call's limits: its caller's `signal`, and `timeoutMs` (0: none),
   * past which the wait fails with `onTimeout()` (the wait counts against a statement's limit).
   */
  turn(
    limits: { signal?: AbortSignal; timeoutMs: number },
    onTimeout: () => Error,
  ): Promise<() => void> {
    const timeout = new AbortController();
    const timer =
      limits.timeoutMs > 0
        ? setTimeout(() => timeout.abort(onTimeout()), limits.timeoutMs)
        : undefined;
    timer?.unref();
    const signal = limits.signal
      ? AbortSignal.any([limits.signal, timeout.signal])
      : timeout.signal;
    return this.admit(signal).finally(() => clearTimeout(timer));
  }

  get load(): { inWorker: number; waiting: number } {
    const { inUse, waiting } = this.slots.load;
    return { inWorker: inUse, waiting };
  }
}
