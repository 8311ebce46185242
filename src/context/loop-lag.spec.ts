import { setTimeout as sleep } from 'node:timers/promises';

import { LoopLag } from './loop-lag';

describe('LoopLag', () => {
  it('reports a blocked event loop as lag', async () => {
    const sut = new LoopLag(300);
    try {
      await sleep(350); // the sampler's first tick
      const until = performance.now() + 150;
      while (performance.now() < until) {
        // the main thread is busy: the sampling timer cannot fire
      }
      await sleep(350);
      // The sampling timer fired at least ~140 ms late (150 ms blocked, 10 ms resolution).
      expect(sut.p99Ms).toBeGreaterThanOrEqual(100);
    } finally {
      sut.stop();
    }
  });
});
