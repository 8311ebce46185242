import { DependencyError } from '@app/common';

import {
  type FakeCohere,
  fakeCohereRelevance,
  startFakeCohere,
} from '../../../../test/fakes/cohere-server';
import { waitUntil } from '../../../../test/support/wait';
import { type RerankCandidate } from '../interfaces/reranker.interface';
import { CohereReranker } from './cohere.reranker';

const candidates = (texts: string[]): RerankCandidate[] =>
  texts.map((content, i) => ({ id: `c${i}`, content }));

describe('CohereReranker (real cohere-ai SDK against a loopback Cohere v2)', () => {
  let server: FakeCohere;

  beforeAll(async () => {
    server = await startFakeCohere({ apiKey: 'co-test-key' });
  });
  afterAll(() => server.close());
  beforeEach(() => server.requests.splice(0));

  const make = (overrides: Partial<ConstructorParameters<typeof CohereReranker>[0]> = {}) =>
    new CohereReranker({ apiKey: 'co-test-key', baseUrl: server.baseUrl, ...overrides });

  it('sends the v2 rerank request with a bearer token and maps results back by index', async () => {
    const sut = make();
    const query = 'refund policy for chairs';
    const texts = [
      'The sofa delivery is booked for Thursday.',
      'Chairs can be returned within 30 days for a full refund.',
      'Our refund policy covers tables.',
    ];
    const scores = await sut.score(query, candidates(texts));
    expect(scores).toEqual(texts.map((t) => fakeCohereRelevance(query, t)));
    expect(scores[1]).toBeGreaterThan(scores[2]);
    expect(scores[2]).toBeGreaterThan(scores[0]);

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.path).toBe('/v2/rerank');
    expect(request.authorization).toBe('Bearer co-test-key');
    expect(request.body).toEqual({ model: 'rerank-v3.5', query, documents: texts, top_n: 3 });
  });

  it('uses the configured model', async () => {
    await make({ model: 'rerank-v4.0-fast' }).score('q', candidates(['a']));
    expect(server.requests[0].body.model).toBe('rerank-v4.0-fast');
  });

  it('maps a rejected API key (401) to rerank_failed without leaking the key', async () => {
    const error = await make({ apiKey: 'co-wrong-key' })
      .score('q', candidates(['a']))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyError);
    expect(error).toMatchObject({
      code: 'rerank_failed',
      httpStatus: 503,
      message: 'Cohere rerank failed: HTTP 401: invalid api token',
    });
    expect((error as Error).message).not.toContain('co-wrong-key');
  });

  it('fails fast on a 429 by default (no SDK retry inside a rerank deadline)', async () => {
    server.script({ status: 429 });
    await expect(make().score('q', candidates(['a']))).rejects.toMatchObject({
      code: 'rerank_failed',
      message: expect.stringMatching(
        /^Cohere rerank failed: HTTP 429: You are using a Trial key/,
      ) as string,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('lets the SDK retry a 500 when retries are configured', async () => {
    server.script({ status: 500 });
    await expect(
      make({ maxRetries: 1 }).score('walnut', candidates(['walnut table'])),
    ).resolves.toEqual([1]);
    expect(server.requests).toHaveLength(2);
  });

  it('maps a 500 without retries and an unknown model (404) to rerank_failed', async () => {
    server.script({ status: 500 });
    await expect(make().score('q', candidates(['a']))).rejects.toMatchObject({
      message:
        'Cohere rerank failed: HTTP 500: internal server error, this has been reported to our developers',
    });
    await expect(
      make({ model: 'rerank-nope' }).score('q', candidates(['a'])),
    ).rejects.toMatchObject({
      code: 'rerank_failed',
      message: expect.stringContaining("HTTP 404: model 'rerank-nope' not found") as string,
    });
  });

  it('stops waiting when the caller aborts', async () => {
    server.script({ delayMs: 2_000 });
    const controller = new AbortController();
    const sent = server.requests.length;
    // cohere-ai 8.1.0 leaves its request-timeout timer running when a request is aborted,
    // so a short timeout keeps that stray timer from outliving the test.
    const pending = make({ timeoutMs: 300 }).score('slow', candidates(['a']), controller.signal);
    // Abort once Cohere holds the request: an ignored abort ends in the 300 ms timeout instead.
    await waitUntil('the request at Cohere', () => server.requests.length > sent);
    controller.abort();
    await expect(pending).rejects.toMatchObject({
      code: 'rerank_failed',
      message: 'Cohere rerank failed: aborted by the caller',
    });
  });

  it('scores an empty pool without calling Cohere', async () => {
    await expect(make().score('q', [])).resolves.toEqual([]);
    expect(server.requests).toHaveLength(0);
  });
});
