/** Everything jest can fake except `Date`: timers, microtasks and I/O stay real. */
const ALL_BUT_DATE = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

/**
 * Fakes only `Date.now()`, for code whose cooldowns read the wall clock (cockatiel's circuit
 * breaker) while the test still talks to a real loopback server. Call `jest.useRealTimers()`
 * in `afterEach`.
 */
export function fakeDateOnly(): { advance(ms: number): void } {
  jest.useFakeTimers({ doNotFake: [...ALL_BUT_DATE], now: Date.now() });
  return { advance: (ms) => jest.setSystemTime(Date.now() + ms) };
}
