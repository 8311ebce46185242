/**
 * Where a bench:abuse server's memory is, from its /metrics: the main thread's V8 heap and
 * external memory, and the rest of the RSS (worker threads' heaps and WASM memory, the
 * embedded database, native code). The bench keeps the sample taken at a phase's RSS peak.
 */
/** Issue 37's acceptance line for the server's RSS under every attack. */
const RSS_LINE_MB = 1500;

export interface MemorySample {
  rss_mb: number;
  /** {@link RSS_LINE_MB}, printed beside each peak so a reader sees the line in the JSON. */
  rss_line_mb: number;
  under_rss_line: boolean;
  main_heap_total_mb: number;
  main_heap_used_mb: number;
  main_external_mb: number;
  /** RSS outside the main thread's heap and external memory: workers, WASM, native. */
  rest_mb: number;
}

export async function scrapeMemory(url: string): Promise<MemorySample> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const mb = (name: string) =>
    Math.round(
      Number(new RegExp(`^context_bridge_${name} ([0-9.e+-]+)`, 'm').exec(text)?.[1] ?? NaN) / 1e6,
    );
  const rss = mb('process_resident_memory_bytes');
  const heapTotal = mb('nodejs_heap_size_total_bytes');
  const external = mb('nodejs_external_memory_bytes');
  return {
    rss_mb: rss,
    rss_line_mb: RSS_LINE_MB,
    under_rss_line: rss < RSS_LINE_MB,
    main_heap_total_mb: heapTotal,
    main_heap_used_mb: mb('nodejs_heap_size_used_bytes'),
    main_external_mb: external,
    rest_mb: rss - heapTotal - external,
  };
}

/** The sample with the larger RSS (the first when neither has one yet). */
export const peakOf = (a: MemorySample | undefined, b: MemorySample): MemorySample =>
  !a || b.rss_mb > a.rss_mb ? b : a;

interface PhasePeak {
  phase: string;
  rss_max_mb: number;
}

/**
 * Each side's RSS peak per phase (quiet phases included) against {@link RSS_LINE_MB}, and
 * whether every phase stayed under it.
 */
export function rssAgainstLine(rows: Array<{ side: string; quiet: PhasePeak; attack: PhasePeak }>) {
  const sides = [...new Set(rows.map((r) => r.side))];
  return Object.fromEntries(
    sides.map((side) => {
      const phases = rows
        .filter((r) => r.side === side)
        .flatMap((r) => [r.quiet, r.attack])
        .map((p) => ({ phase: p.phase, rss_max_mb: p.rss_max_mb }));
      const peak = Math.max(...phases.map((p) => p.rss_max_mb));
      return [
        side,
        { line_mb: RSS_LINE_MB, peak_mb: peak, under_line: peak < RSS_LINE_MB, phases },
      ];
    }),
  );
}
