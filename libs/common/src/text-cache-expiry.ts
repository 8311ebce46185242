/**
 * Lifetimes for in-memory caches keyed by customer text (token counts, term sets, boilerplate
 * shares, query vectors). They hold history excerpts and call transcripts as keys, so an
 * erased contact's words would otherwise stay in every replica's memory until evicted, which
 * on a quiet replica is never. With {@link TEXT_CACHE_TTL} and {@link sweepStale} an entry
 * lives at most {@link TEXT_CACHE_TTL_MS}, and is dropped within {@link TEXT_CACHE_SWEEP_MS}
 * after (the hot texts of a live call come back within seconds, so hit rates are unchanged).
 */
export const TEXT_CACHE_TTL_MS = 10 * 60_000;
export const TEXT_CACHE_SWEEP_MS = 60_000;

/** The `LRUCache` option that gives an entry its lifetime: spread it in. */
export const TEXT_CACHE_TTL = { ttl: TEXT_CACHE_TTL_MS } as const;

interface Purgeable {
  purgeStale(): boolean;
}

/** Weak, so an app torn down (tests boot many) does not keep its caches alive. */
const caches = new Set<WeakRef<Purgeable>>();
let sweeper: NodeJS.Timeout | undefined;

function sweep(): void {
  for (const ref of caches) {
    const cache = ref.deref();
    if (cache) {
      cache.purgeStale();
    } else {
      caches.delete(ref);
    }
  }
}

/**
 * Drops `cache`'s expired entries every {@link TEXT_CACHE_SWEEP_MS} (one process-wide timer
 * that never holds the process open): an expired entry is otherwise freed only when read.
 */
export function sweepStale<C extends Purgeable>(cache: C): C {
  caches.add(new WeakRef(cache));
  if (!sweeper) {
    sweeper = setInterval(sweep, TEXT_CACHE_SWEEP_MS);
    sweeper.unref();
  }
  return cache;
}
