import { setFlagsFromString } from 'node:v8';

/**
 * Caps how far the main thread's V8 heap grows past its live size before the next full GC
 * (`HEAP_GROWING_PERCENT`). V8 picks the factor from the machine's memory: on a 24 GB box up
 * to 4× the live heap, so ~160 MB of live objects under bench:abuse sat in ~480 MB of heap,
 * mostly garbage no GC had been asked to collect yet (docs/benchmarks.md, "Where the RSS
 * goes"). V8 reads this flag each time it sets the next GC's limit, so setting it after start
 * takes effect; 0 leaves V8's heuristics alone.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) {
    setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
  }
}
