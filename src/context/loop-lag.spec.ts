import { LoopLag } from './loop-lag';

describe('LoopLag', () => {
  // Only the sampling interval is fake: the native delay histogram measures the real loop.
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'performance', 'hrtime'] }));
  afterEach(() => jest.useRealTimers());

  /** Keeps the main thread busy: the histogram's native timer cannot fire meanwhile. */
  const block = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until) {
      // busy
    }
  };
  /** A few real loop turns, so the native timer runs (and records how late it is). */
  const turnLoop = async () => {
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };

  it('reports a blocked event loop as lag', async () => {
    const sut = new LoopLag(300);
    try {
      block(15); // past one 10 ms resolution: the native timer's first tick starts its record
      await turnLoop();
      block(150);
      await turnLoop();
      expect(sut.p99Ms).toBe(0); // nothing sampled before the window closes
      jest.advanceTimersByTime(300);
      // The native timer fired at least ~140 ms late (150 ms blocked, 10 ms resolution).
      expect(sut.p99Ms).toBeGreaterThanOrEqual(100);
    } finally {
      sut.stop();
    }
  });
});
