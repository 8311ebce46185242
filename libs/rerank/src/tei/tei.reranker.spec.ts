import { DependencyError } from '@app/common';

import {
  fakeRerankScore,
  type FakeTeiRerank,
  startFakeTeiRerank,
} from '../../../../test/fakes/tei-rerank-server';
import { waitUntil } from '../../../../test/support/wait';
import { type RerankCandidate } from '../interfaces/reranker.interface';
import { TeiReranker } from './tei.reranker';

const candidates = (texts: string[]): RerankCandidate[] =>
  texts.map((content, i) => ({ id: `c${i}`, content }));

describe('TeiReranker (fetch against a loopback TEI /rerank)', () => {
  let server: FakeTeiRerank;

  beforeAll(async () => {
    server = await startFakeTeiRerank();
  });
  afterAll(() => server.close());
  beforeEach(() => server.requests.splice(0));

  const make = (overrides: Partial<ConstructorParameters<typeof TeiReranker>[0]> = {}) =>
    new TeiReranker({ url: server.url, ...overrides });

  it('maps TEI’s score-sorted ranks back to input order by index', async () => {
    const sut = make();
    const query = 'replacement leg for the dining table';
    const texts = [
      'We have Tuesday morning or Thursday afternoon.',
      'A replacement leg for the dining table ships in five days.',
      'The dining table is back-ordered.',
    ];
    const scores = await sut.score(query, candidates(texts));
    expect(scores).toEqual(
      texts.map((t) => expect.closeTo(fakeRerankScore(query, t), 6) as number),
    );
    expect(scores[1]).toBeGreaterThan(scores[2]);
    expect(scores[2]).toBeGreaterThan(scores[0]);
    expect(server.requests).toEqual([
      {
        method: 'POST',
        path: '/rerank',
        body: { query, texts, raw_scores: false, truncate: true },
      },
    ]);
  });

  it('splits pools larger than the client batch limit (32) into several requests', async () => {
    const sut = make();
    const texts = Array.from({ length: 70 }, (_, i) =>
      i % 7 === 0 ? `window ${i} about the walnut table` : `window ${i} about something else`,
    );
    const scores = await sut.score('walnut table', candidates(texts));
    expect(server.requests.map((r) => (r.body as { texts: string[] }).texts.length)).toEqual([
      32, 32, 6,
    ]);
    expect(scores).toHaveLength(70);
    scores.forEach((s, i) => expect(s).toBeCloseTo(fakeRerankScore('walnut table', texts[i]), 6));
    expect(scores[63]).toBeGreaterThan(scores[64]);
  });

  it('maps TEI’s 413 validation error when the server’s batch limit is smaller than configured', async () => {
    const sut = make({ maxClientBatch: 64 });
    const error = await sut
      .score('q', candidates(Array.from({ length: 40 }, (_, i) => `text ${i}`)))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyError);
    expect(error).toMatchObject({ code: 'rerank_failed', httpStatus: 503 });
    expect((error as Error).message).toBe(
      'TEI /rerank answered HTTP 413: Validation: batch size 40 > maximum allowed batch size 32',
    );
  });

  it('maps a scripted 503 (model unhealthy) to rerank_failed', async () => {
    server.script({ status: 503 });
    await expect(make().score('q', candidates(['a text']))).rejects.toMatchObject({
      code: 'rerank_failed',
      message: 'TEI /rerank answered HTTP 503: Unhealthy: Model is not healthy',
    });
  });

  it('stops waiting when the caller aborts, and the server sees the hang-up', async () => {
    server.script({ delayMs: 2_000 });
    const before = server.disconnects;
    const controller = new AbortController();
    const sent = server.requests.length;
    const pending = make().score('slow', candidates(['a text']), controller.signal);
    // Abort once TEI holds the request (its answer is 2 s away: an ignored abort fails below).
    await waitUntil('the request at TEI', () => server.requests.length > sent);
    controller.abort();
    await expect(pending).rejects.toMatchObject({
      code: 'rerank_failed',
      message: 'TEI /rerank aborted by the caller',
    });
    await waitUntil('TEI saw the hang-up', () => server.disconnects === before + 1, 1_000);
  });

  it('gives up after its own timeout when the caller passes no signal', async () => {
    server.script({ delayMs: 1_000 });
    await expect(
      make({ timeoutMs: 100 }).score('slow', candidates(['a text'])),
    ).rejects.toMatchObject({
      code: 'rerank_failed',
      message: 'TEI /rerank timed out',
    });
  });

  it('maps an unreachable server to rerank_failed', async () => {
    const dead = await startFakeTeiRerank();
    await dead.close();
    await expect(
      new TeiReranker({ url: dead.url }).score('q', candidates(['a text'])),
    ).rejects.toMatchObject({
      code: 'rerank_failed',
      message: expect.stringContaining('unreachable') as string,
    });
  });

  it('scores an empty pool without calling the server', async () => {
    await expect(make().score('q', [])).resolves.toEqual([]);
    expect(server.requests).toHaveLength(0);
  });
});

describe('the fake TEI server itself (wire-format checks)', () => {
  let server: FakeTeiRerank;

  beforeAll(async () => {
    server = await startFakeTeiRerank();
  });
  afterAll(() => server.close());

  const post = (body: string, contentType = 'application/json') =>
    fetch(`${server.url}/rerank`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    });

  it('rejects an empty texts list the way TEI does', async () => {
    const response = await post(JSON.stringify({ query: 'q', texts: [] }));
    expect(response.status).toBe(400);
    await expect(response.json()).resolves.toEqual({
      error: '`texts` cannot be empty',
      error_type: 'Empty',
    });
  });

  it('answers 422 in plain text for a body of the wrong shape, as axum does', async () => {
    const response = await post(JSON.stringify({ texts: ['a'] }));
    expect(response.status).toBe(422);
    await expect(response.text()).resolves.toMatch(/^Failed to deserialize the JSON body/);
  });

  it('returns raw logits and texts when asked', async () => {
    const response = await post(
      JSON.stringify({
        query: 'walnut table',
        texts: ['no match', 'walnut table'],
        raw_scores: true,
        return_text: true,
      }),
    );
    await expect(response.json()).resolves.toEqual([
      { index: 1, text: 'walnut table', score: 5 },
      { index: 0, text: 'no match', score: -5 },
    ]);
  });
});
