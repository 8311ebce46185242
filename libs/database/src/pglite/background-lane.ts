/**
 * Background statements' turn on PGlite's one session. The worker runs statements first in,
 * first out, so a burst of background work (a `/chat` flood's knowledge-base searches) would
 * sit ahead of every live statement; here at most `maxInWorker` background statements (or
 * transactions) are in the worker at once and the rest wait on this side, so a live statement
 * queues behind at most that many.
 */
export class BackgroundLane {
  private inWorker = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly maxInWorker = 1) {}

  /**
   * Resolves with a release function once the caller may post; `signal` aborting while it
   * waits rejects with the signal's reason and leaves the queue.
   */
  admit(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) {
      return Promise.reject(signal.reason as Error);
    }
    if (this.inWorker < this.maxInWorker) {
      this.inWorker++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const admit = () => {
        signal.removeEventListener('abort', onAbort);
        this.inWorker++;
        resolve(this.releaser());
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(admit);
        if (i >= 0) {
          this.waiting.splice(i, 1);
        }
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(admit);
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
    return { inWorker: this.inWorker, waiting: this.waiting.length };
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) {
        return;
      }
      released = true;
      this.inWorker--;
      this.waiting.shift()?.();
    };
  }
}
