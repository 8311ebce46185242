import { abortReason } from '@app/common';
import { type RerankCandidate, RERANKER,type Reranker } from '@app/rerank';

import { bootTestApp, postJson, type TestApp } from './support/app';

type RelevanceBody = { scores?: number[]; error?: string; message?: string };

/**
 * A reranker that, while `holding`, waits until its caller gives up (as the real ones stop
 * once their signal aborts); `entered` settles when a held call has reached it.
 */
class HeldReranker implements Reranker {
  readonly name = 'fusion';
  holding = false;
  private onEnter: () => void = () => undefined;

  entered(): Promise<void> {
    return new Promise((resolve) => (this.onEnter = resolve));
  }

  score(_query: string, candidates: RerankCandidate[], signal?: AbortSignal): Promise<number[]> {
    if (!this.holding) {
      return Promise.resolve(candidates.map(() => 0.5));
    }
    this.onEnter();
    return new Promise((_, reject) => {
      signal?.addEventListener('abort', () => reject(abortReason(signal)), { once: true });
    });
  }
}

/**
 * `/relevance` over HTTP: one scoring slot (RELEVANCE_MAX_INFLIGHT=1) and a deadline
 * (RELEVANCE_TIMEOUT_MS). A call past a busy slot gets 503 `overloaded`; the call holding it
 * gets 503 `relevance_timeout` at its deadline, which frees the slot for the next one.
 */
describe('POST /relevance admission and deadline (e2e: real app)', () => {
  const reranker = new HeldReranker();
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp({ RELEVANCE_MAX_INFLIGHT: '1', RELEVANCE_TIMEOUT_MS: '3000' }, (b) =>
      b.overrideProvider(RERANKER).useValue(reranker),
    );
  });
  afterAll(() => t?.close());

  const relevance = (candidate: string) =>
    postJson<RelevanceBody>(`${t.url}/relevance`, { query: 'refund policy', candidate });

  it('answers 503 overloaded while its one slot is busy, 503 relevance_timeout at the deadline, then serves again', async () => {
    // Warm: the embedder has answered once, so the held call reaches the reranker in time.
    expect(await relevance('Refunds within 30 days.')).toMatchObject({ status: 200 });

    reranker.holding = true;
    const entered = reranker.entered();
    const holder = relevance('Refunds need a receipt.');
    await entered;
    const refused = await relevance('Store credit instead of refunds.');
    expect(refused).toMatchObject({
      status: 503,
      body: { error: 'overloaded', message: expect.stringMatching(/RELEVANCE_MAX_INFLIGHT/) },
    });
    expect(await holder).toMatchObject({
      status: 503,
      body: { error: 'relevance_timeout', message: expect.stringMatching(/RELEVANCE_TIMEOUT_MS/) },
    });

    reranker.holding = false;
    expect(await relevance('Refunds within 30 days.')).toMatchObject({
      status: 200,
      body: { scores: [0.5] },
    });
  });
});
