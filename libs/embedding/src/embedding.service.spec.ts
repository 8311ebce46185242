import { TEXT_CACHE_TTL_MS } from '@app/common';

import { EmbeddingService } from './embedding.service';
import { type EmbeddingProvider } from './interfaces/embedding-provider.interface';

/** A provider that counts its calls and embeds every text as the same 768-d vector. */
function countingProvider(): EmbeddingProvider & { calls: number } {
  const provider = {
    calls: 0,
    init: () =>
      Promise.resolve({
        provider: 'local' as const,
        model: 'stub',
        dimension: 768,
        defaultThreshold: 0.5,
      }),
    embedBatch: (texts: string[]) => {
      provider.calls++;
      return Promise.resolve(texts.map(() => new Array<number>(768).fill(0.1)));
    },
    close: () => Promise.resolve(),
  };
  return provider;
}

describe('EmbeddingService query cache', () => {
  it('serves a repeated query from the cache', async () => {
    const provider = countingProvider();
    const sut = new EmbeddingService(provider, { provider: 'local' });
    await sut.embedQuery('when will my table ship');
    await sut.embedQuery('  when will my   table ship ');
    expect(provider.calls).toBe(1);
    // Transcripts are keys: an erased caller's words must expire (old: kept until evicted).
    expect(sut['queryCache']?.ttl).toBe(TEXT_CACHE_TTL_MS);
  });

  it('is bounded in bytes, not only in entries: large queries evict before the count is reached', async () => {
    const provider = countingProvider();
    const sut = new EmbeddingService(provider, { provider: 'local', queryCacheSize: 100_000 });
    const query = (i: number) => `query ${i} `.padEnd(20_000, 'x');
    const n = 1_000; // ~40 KB of text each: 40 MB in all, over the budget
    for (let i = 0; i < n; i++) {
      await sut.embedQuery(query(i));
    }
    const cache = sut['queryCache'];
    expect(cache?.size).toBeLessThan(n);
    expect(cache?.calculatedSize).toBeLessThanOrEqual(cache?.maxSize ?? 0);
    await sut.embedQuery(query(n - 1));
    expect(provider.calls).toBe(n); // the most recent is still cached
  });
});
