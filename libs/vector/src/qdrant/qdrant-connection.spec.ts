import { DependencyError } from '@app/common';
import { Logger } from '@nestjs/common';

import { QdrantConnection } from './qdrant-connection';

const collections = {
  conversations: 'cb_conversations',
  source_chunks: 'cb_chunks',
  topic_summaries: 'cb_topics',
};

describe('QdrantConnection', () => {
  let warn: jest.SpyInstance;

  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('maps a logical collection to its configured Qdrant name', () => {
    const sut = new QdrantConnection({ url: 'http://localhost:6333', timeoutMs: 50, collections });
    expect(sut.name('source_chunks')).toBe('cb_chunks');
  });

  it('turns any failure into vector_store_unavailable naming the origin, never URL credentials', async () => {
    const sut = new QdrantConnection({
      url: 'https://admin:s3cret@qdrant.internal:6333/prefix',
      timeoutMs: 50,
      collections,
    });
    const failed = sut.call(() =>
      Promise.reject(
        Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } }),
      ),
    );
    await expect(failed).rejects.toBeInstanceOf(DependencyError);
    await expect(failed).rejects.toMatchObject({
      code: 'vector_store_unavailable',
      message: 'Qdrant at https://qdrant.internal:6333 is unreachable (ENOTFOUND)',
    });
  });

  it('warns, without the key, when an API key would cross plain http off the loopback', () => {
    const apiKey = 'key-that-must-not-be-logged';
    new QdrantConnection({ url: 'http://localhost:6333', apiKey, timeoutMs: 50, collections });
    new QdrantConnection({
      url: 'https://qdrant.example:6333',
      apiKey,
      timeoutMs: 50,
      collections,
    });
    expect(warn).not.toHaveBeenCalled();
    new QdrantConnection({
      url: 'http://qdrant.internal:6333',
      apiKey,
      timeoutMs: 50,
      collections,
    });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toContain('http://qdrant.internal:6333');
    expect(String(warn.mock.calls[0][0])).not.toContain(apiKey);
  });
});
