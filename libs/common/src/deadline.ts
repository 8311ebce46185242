/** Outcome of racing work against a deadline: the value, or a note that time ran out. */
export type DeadlineResult<T> =
  | { status: 'ok'; value: T; ms: number }
  | { status: 'timeout'; ms: number }
  | { status: 'error'; error: unknown; ms: number };

/**
 * Races `work` against `ms` milliseconds. The timer never keeps the process alive and the
 * abort signal lets cooperative work (fetch, SDK calls) stop early when the deadline passes.
 * With no time left the work does not start: a cached answer must not beat a 0 ms timer and
 * call a stage on time that began after its deadline.
 */
export async function withDeadline<T>(
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<DeadlineResult<T>> {
  if (ms <= 0) {
    return { status: 'timeout', ms: 0 };
  }
  const started = performance.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), Math.max(0, ms));
    timer.unref();
  });
  try {
    const outcome = await Promise.race([work(controller.signal), timeout]);
    const elapsed = performance.now() - started;
    if (outcome === 'timeout') {
      controller.abort();
      return { status: 'timeout', ms: elapsed };
    }
    return { status: 'ok', value: outcome, ms: elapsed };
  } catch (error) {
    return { status: 'error', error, ms: performance.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

/** Milliseconds to one decimal: what bundles, explain and spans report for stage timings. */
export const roundMs = (ms: number): number => Math.round(ms * 10) / 10;
