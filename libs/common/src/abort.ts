/** Waiting with a caller's abort signal: every wait here ends when the signal aborts. */

/** The signal's reason as an Error (a DOMException `AbortError`/`TimeoutError` normally). */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  // Duck-typed: a DOMException from another realm (test VMs) fails `instanceof Error`.
  return typeof reason === 'object' && reason !== null && 'name' in reason
    ? (reason as Error)
    : new Error('aborted');
}

/**
 * Settles like `work`, or rejects with the signal's reason as soon as `signal` aborts,
 * whichever is first. `work` keeps running (it may be shared with other callers, like a
 * single-flight login or token refresh). Its late rejection is always observed here, also
 * when the signal had aborted before the call, so it is never reported as unhandled: on
 * Node 20 an unhandled rejection ends the process.
 *
 * `cleanUp` receives `work` only when the abort wins, so what it brings late (a pooled
 * connection, say) can be given back: the caller never sees that value, and the clean-up
 * never runs for a value the caller got.
 */
export function untilAborted<T>(
  work: Promise<T>,
  signal?: AbortSignal,
  cleanUp?: (late: Promise<T>) => void,
): Promise<T> {
  if (!signal) {
    return work;
  }
  if (signal.aborted) {
    work.catch(() => undefined);
    cleanUp?.(work);
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    // One decision: whichever of the work and the abort comes first wins, once.
    let decided = false;
    const onAbort = (): void => {
      decided = true;
      cleanUp?.(work);
      reject(abortReason(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = (finish: () => void): void => {
      if (!decided) {
        decided = true;
        signal.removeEventListener('abort', onAbort);
        finish();
      }
    };
    work.then(
      (value) => settle(() => resolve(value)),
      // Passed on as it came: this helper is a pass-through, not a place to wrap errors.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      (error: unknown) => settle(() => reject(error)),
    );
  });
}

/** Waits `ms`, or rejects when `signal` aborts first. The timer never keeps the process up. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 && !signal?.aborted) {
    return Promise.resolve();
  }
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  return untilAborted(waited, signal).finally(() => clearTimeout(timer));
}
