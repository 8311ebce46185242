import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

import { loadConfig } from '../config/load-config';

/**
 * A process holding ~60 MB of live objects while it churns short-lived ones, as the service's
 * main thread does under load: the largest V8 heap it reached, in MB. Its own process, with
 * the heap limit pinned, so V8's machine-dependent sizing is the same everywhere.
 */
function peakHeapMb(growingPercent: number): number {
  const script = `
    const { getHeapStatistics } = require('node:v8');
    require(${JSON.stringify(join(__dirname, 'heap-growth.ts'))}).limitHeapGrowth(${growingPercent});
    const live = [];
    for (let i = 0; i < 600000; i++) live.push({ i, s: 'live ' + i });
    let churn = [];
    let peak = 0;
    for (let round = 0; round < 150; round++) {
      for (let i = 0; i < 20000; i++) churn.push({ round, i, s: 'short ' + i, a: new Array(8).fill(i) });
      if (churn.length > 100000) churn = [];
      peak = Math.max(peak, getHeapStatistics().total_heap_size);
    }
    process.stdout.write(String(Math.round(peak / 1e6) + 0 * live.length));
  `;
  const out = execFileSync(
    process.execPath,
    ['--max-old-space-size=4096', '--single-threaded-gc', '-r', '@swc-node/register', '-e', script],
    { encoding: 'utf8' },
  );
  return Number(out);
}

describe('limitHeapGrowth (HEAP_GROWING_PERCENT)', () => {
  it("keeps the main heap near its live size instead of V8's up-to-4× growth", () => {
    const unbounded = peakHeapMb(0);
    const bounded = peakHeapMb(50);
    expect(bounded).toBeGreaterThan(60);
    // Single-threaded GC (the child's flag) makes the bounded run's peak the same every time
    // (471 MB here); V8's own rule reached 586-616. A concurrent GC's timing moved the peaks
    // enough to fail a 0.75 line on CI once (436 against 571). Without the cap, the ratio is ~1.
    expect(bounded).toBeLessThan(unbounded * 0.9);
  });

  it('defaults to 50% and takes the env', () => {
    expect(loadConfig({}).server.heapGrowingPercent).toBe(50);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '0' }).server.heapGrowingPercent).toBe(0);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '120' }).server.heapGrowingPercent).toBe(120);
  });

  it.each(['-1', '301', '1.5', '50%', 'abc'])('refuses HEAP_GROWING_PERCENT=%j at boot', (value) => {
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: value })).toThrow(/HEAP_GROWING_PERCENT/);
  });
});
