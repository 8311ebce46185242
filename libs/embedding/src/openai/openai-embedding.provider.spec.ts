import { DependencyError } from '@app/common';

import {
  fakeEmbedding,
  type FakeOpenAi,
  startFakeOpenAi,
} from '../../../../test/fakes/openai-server';
import { OpenAiEmbeddingProvider } from './openai-embedding.provider';

describe('OpenAiEmbeddingProvider (real SDK against a loopback OpenAI)', () => {
  let server: FakeOpenAi;

  beforeAll(async () => {
    server = await startFakeOpenAi({ apiKey: 'sk-test' });
  });
  afterAll(() => server.close());
  beforeEach(() => server.requests.splice(0));

  const make = (
    overrides: Partial<ConstructorParameters<typeof OpenAiEmbeddingProvider>[0]> = {},
  ) =>
    new OpenAiEmbeddingProvider({
      apiKey: 'sk-test',
      baseURL: server.baseURL,
      maxRetries: 2,
      ...overrides,
    });

  it('declares text-embedding-3-small as 1536-d with the spec threshold 0.70', async () => {
    const sut = make();
    await expect(sut.init()).resolves.toEqual({
      provider: 'openai',
      model: 'text-embedding-3-small',
      dimension: 1536,
      defaultThreshold: 0.7,
    });
  });

  it('embeds a batch in input order and decodes the base64 wire format', async () => {
    const sut = make();
    const vectors = await sut.embedBatch(['first text', 'second text']);
    expect(vectors).toHaveLength(2);
    expect(vectors[0]).toHaveLength(1536);
    expect(vectors[0][0]).toBeCloseTo(fakeEmbedding('first text', 1536)[0], 5);
    expect(vectors[1][7]).toBeCloseTo(fakeEmbedding('second text', 1536)[7], 5);
    expect(server.requests[0].authorization).toBe('Bearer sk-test');
    expect(server.requests[0].body.model).toBe('text-embedding-3-small');
    expect(server.requests[0].body.encoding_format).toBe('base64');
  });

  it('retries a 429 (honouring retry-after) and succeeds', async () => {
    const sut = make();
    server.failNext({ status: 429, retryAfterSeconds: 0 });
    const [vector] = await sut.embedBatch(['rate limited once']);
    expect(vector[3]).toBeCloseTo(fakeEmbedding('rate limited once', 1536)[3], 5);
    expect(server.requests).toHaveLength(2);
  });

  it('retries a 500 and succeeds when the server recovers', async () => {
    const sut = make();
    server.failNext({ status: 500 });
    await expect(sut.embedBatch(['flaky'])).resolves.toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it('gives up after the retry budget with a typed embedding_failed error', async () => {
    const sut = make({ maxRetries: 1 });
    server.failNext({ status: 500 }, { status: 500 });
    const error = await sut.embedBatch(['down']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyError);
    expect(error).toMatchObject({ code: 'embedding_failed', httpStatus: 503 });
    expect((error as Error).message).toContain('HTTP 500');
    expect(server.requests).toHaveLength(2);
  });

  it('maps a rejected API key to embedding_failed without retrying', async () => {
    const sut = make({ apiKey: 'sk-wrong' });
    await expect(sut.embedBatch(['x'])).rejects.toMatchObject({ code: 'embedding_failed' });
    expect(server.requests).toHaveLength(1);
  });

  it('refuses an unknown model without a configured dimension', async () => {
    await expect(make({ model: 'my-custom-model' }).init()).rejects.toThrow(/EMBEDDING_DIMENSION/);
    await expect(make({ model: 'my-custom-model', dimension: 256 }).init()).resolves.toMatchObject({
      dimension: 256,
    });
  });
});
