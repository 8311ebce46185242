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
 */
export function untilAborted<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) {
    return work;
  }
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(abortReason(signal));
  }
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  // The race observes `work`'s late rejection; the listener goes as soon as it settles.
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
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
