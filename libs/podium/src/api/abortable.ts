/** Deadline plumbing for Podium HTTP calls (waiting on a signal lives in `@app/common`). */

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
