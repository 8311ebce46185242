import { DependencyError } from '@app/common';

import { fakeEmbedding } from '../../../../test/fakes/openai-server';
import { type FakeTeiEmbed, startFakeTeiEmbed } from '../../../../test/fakes/tei-embed-server';
import { TeiEmbeddingProvider } from './tei-embedding.provider';

describe('TeiEmbeddingProvider (against a loopback TEI /embed)', () => {
  let server: FakeTeiEmbed;

  beforeAll(async () => {
    server = await startFakeTeiEmbed({ dimension: 384, modelId: 'BAAI/bge-small-en-v1.5' });
  });
  afterAll(() => server.close());

  it('probes the dimension and model id at init and declares its own threshold', async () => {
    const sut = new TeiEmbeddingProvider({ url: server.url });
    await expect(sut.init()).resolves.toEqual({
      provider: 'tei',
      model: 'BAAI/bge-small-en-v1.5',
      dimension: 384,
      defaultThreshold: 0.6,
    });
  });

  it('splits inputs into TEI-sized batches and keeps the input order', async () => {
    const sut = new TeiEmbeddingProvider({ url: server.url });
    server.requests.splice(0);
    const texts = Array.from({ length: 70 }, (_, i) => `text number ${i}`);
    const vectors = await sut.embedBatch(texts);
    expect(vectors).toHaveLength(70);
    expect(vectors[69][0]).toBeCloseTo(fakeEmbedding('text number 69', 384)[0], 10);
    expect(server.requests.map((r) => (r.body as { inputs: string[] }).inputs.length)).toEqual([
      32, 32, 6,
    ]);
    expect(server.requests[0].body).toMatchObject({ truncate: true, normalize: true });
  });

  it('maps TEI errors and unreachable servers to embedding_failed', async () => {
    const sut = new TeiEmbeddingProvider({ url: server.url });
    server.failNext(503);
    const error = await sut.embedBatch(['x']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyError);
    expect(error).toMatchObject({ code: 'embedding_failed' });
    const down = new TeiEmbeddingProvider({ url: 'http://127.0.0.1:9' });
    await expect(down.embedBatch(['x'])).rejects.toMatchObject({ code: 'embedding_failed' });
  });
});
