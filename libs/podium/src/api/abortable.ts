/** Deadline plumbing: every wait here ends when the caller's signal aborts. */

/** The signal's reason as an Error (a DOMException `AbortError`/`TimeoutError` normally). */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  // Duck-typed: a DOMException from another realm (test VMs) fails `instanceof Error`.
  return typeof reason === 'object' && reason !== null && 'name' in reason
    ? (reason as Error)
    : new Error('aborted');
}

/**
 * Settles like `work`, or rejects as soon as `signal` aborts, whichever is first. `work` keeps
 * running (it may be shared with other callers, like a single-flight token refresh); its
 * late rejection is observed here, so it is never reported as unhandled.
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

/** `signal` (when given) combined with a ceiling of `ms`, so no request runs unbounded. */
export function withCeiling(ms: number, signal?: AbortSignal): AbortSignal {
  const ceiling = AbortSignal.timeout(ms);
  return signal ? AbortSignal.any([signal, ceiling]) : ceiling;
}

/**
 * Milliseconds to wait from an HTTP `Retry-After` value: delay-seconds or an HTTP-date
 * (RFC 9110 §10.2.3). `undefined` when absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') {
    return undefined;
  }
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) {
    return Number(trimmed) * 1000;
  }
  // An HTTP-date names a weekday and month; without letters, `Date.parse` would read "-1" as a year.
  const at = /[A-Za-z]/.test(trimmed) ? Date.parse(trimmed) : NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
