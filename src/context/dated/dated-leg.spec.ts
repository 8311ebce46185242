import { type Reranker } from '@app/rerank';
import { type OccurredRange, type VectorFilter } from '@app/vector';

import { strictDouble } from '../../../test/support/doubles';
import {
  type HybridPool,
  type HybridSearchService,
  type PoolCandidate,
} from '../../retrieval/hybrid-search.service';
import { ContextRetriever } from '../context-retriever';
import {
  callerClock,
  DATED_JOIN,
  DATED_WEIGHT,
  datedRange,
  joinDated,
  weighByRange,
} from './dated-leg';

const window = (
  id: string,
  occurredAt: string,
  ranks: Partial<PoolCandidate> = {},
): PoolCandidate => ({
  id,
  content: id,
  vectorScore: 0.5,
  denseScore: 0.5,
  occurredAt,
  payload: {
    contact_uid: 'ctc_1',
    location_uid: null,
    conversation_uid: 'conv',
    channel: 'sms',
    occurred_at: occurredAt,
  },
  ...ranks,
});
const MAY_7 = '2023-05-07T12:00:00.000Z';
const MAY_20 = '2023-05-20T12:00:00.000Z';
const JUNE = '2023-06-10T12:00:00.000Z';

describe('datedRange', () => {
  it('the named day, with a week of slack after it', () => {
    expect(datedRange('What did we say on 7 May 2023?')).toEqual({
      from: '2023-05-07T00:00:00.000Z',
      to: '2023-05-15T00:00:00.000Z',
    });
    expect(datedRange('What did we say about the desk?')).toBeUndefined();
  });
});

describe('callerClock', () => {
  it.each([
    // 21:00 in California is 04:00 UTC the next day: yesterday is still 1 May to the caller.
    ['an evening west of UTC', '2026-05-02T21:00:00-07:00', '2026-05-01T00:00:00.000Z'],
    // 01:30 in Berlin is 23:30 UTC the day before: yesterday is 1 May, not 30 April.
    ['a night east of UTC', '2026-05-02T01:30:00.250+02:00', '2026-05-01T00:00:00.000Z'],
    ['UTC itself', '2026-05-02T21:00Z', '2026-05-01T00:00:00.000Z'],
  ])("resolves 'yesterday' to the caller's own yesterday: %s", (_name, askedAt, from) => {
    expect(datedRange('what did I say yesterday', callerClock(askedAt))?.from).toBe(from);
  });

  it("keeps the caller's wall-clock date for a weekday: 'last Saturday' on a Saturday evening", () => {
    // Saturday 9 May 2026, 20:00 in New York (Sunday 00:00 UTC): last Saturday is 2 May.
    const range = datedRange(
      'what did I order last Saturday',
      callerClock('2026-05-09T20:00:00-04:00'),
    );
    expect(range?.from).toBe('2026-05-02T00:00:00.000Z');
  });
});

describe('joinDated', () => {
  it("appends the range's best windows the pool lacks, at most DATED_JOIN, without their ranks", () => {
    const pool = [window('a', JUNE, { denseRank: 1 }), window('b', MAY_7, { lexicalRank: 1 })];
    const dated = ['b', 'c', 'd', 'e', 'f', 'g', 'h'].map((id, i) =>
      window(id, MAY_7, { denseRank: i + 1, lexicalRank: i + 1, lexicalScore: 2 }),
    );

    const joined = joinDated(pool, dated);

    expect(joined.map((c) => c.id)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(joined).toHaveLength(pool.length + DATED_JOIN);
    expect(joined[1]).toBe(pool[1]); // a pool window keeps its own ranks
    expect(
      joined.slice(2).every((c) => c.denseRank === undefined && c.lexicalRank === undefined),
    ).toBe(true);
    expect(joined[2]).toMatchObject({ denseScore: 0.5, lexicalScore: 2 });
  });

  it('no dated list, or an empty one, leaves the pool as it is', () => {
    const pool = [window('a', JUNE)];
    expect(joinDated(pool, undefined)).toEqual(pool);
    expect(joinDated(pool, [])).toEqual(pool);
  });
});

describe('weighByRange', () => {
  const range: OccurredRange = { from: '2023-05-07T00:00:00.000Z', to: '2023-05-15T00:00:00.000Z' };
  it('a window outside the range keeps 1 / DATED_WEIGHT of its score; one without a time too', () => {
    const pool = [window('in', MAY_7), window('out', MAY_20), window('bad', 'not a time')];
    expect(weighByRange(pool, [0.6, 0.9, 0.9], range)).toEqual([
      0.6,
      0.9 / DATED_WEIGHT,
      0.9 / DATED_WEIGHT,
    ]);
  });
});

describe('ContextRetriever with a dated question', () => {
  const reranker = strictDouble<Reranker>({
    name: 'fusion',
    score: (_query, candidates) => Promise.resolve(candidates.map(() => 0.6)),
  });
  const retrieverOver = (calls: Array<OccurredRange | undefined>, pool: HybridPool) =>
    new ContextRetriever(
      strictDouble<HybridSearchService>({
        pool: (
          _q: string,
          _f: VectorFilter,
          _k: number,
          _s?: AbortSignal,
          _l?: 'context' | 'query',
          dated?: OccurredRange,
        ) => {
          calls.push(dated);
          return Promise.resolve(pool);
        },
      }),
      reranker,
    );
  const timings = { embed_ms: 1, search_ms: 1 };

  it('searches the range, joins its windows and ranks the range first', async () => {
    const calls: Array<OccurredRange | undefined> = [];
    const sut = retrieverOver(calls, {
      candidates: [window('june', JUNE, { denseRank: 1 })],
      dated: [window('may', MAY_7, { denseRank: 1 })],
      timings,
    });

    const ranked = await sut.retrieve('What did we say on 7 May 2023?', {}, 20, () => 500, {});

    expect(calls).toEqual([{ from: '2023-05-07T00:00:00.000Z', to: '2023-05-15T00:00:00.000Z' }]);
    expect(ranked.pool.map((c) => [c.id, c.score])).toEqual([
      ['june', 0.6 / DATED_WEIGHT],
      ['may', 0.6],
    ]);
  });

  it("resolves a yearless date against asked_at (the call's time), and none without it", async () => {
    const calls: Array<OccurredRange | undefined> = [];
    const sut = retrieverOver(calls, {
      candidates: [window('june', JUNE, { denseRank: 1 })],
      dated: [window('may', MAY_7, { denseRank: 1 })],
      timings,
    });
    const question = 'What did I buy last Saturday?';
    const askedAt = new Date('2023-05-10T09:00:00Z'); // a Wednesday

    await sut.retrieve(question, {}, 20, () => 500, {});
    const ranked = await sut.retrieve(
      question,
      {},
      20,
      () => 500,
      {},
      'context',
      undefined,
      askedAt,
    );

    expect(calls).toEqual([
      undefined,
      { from: '2023-05-06T00:00:00.000Z', to: '2023-05-14T00:00:00.000Z' },
    ]);
    expect(ranked.pool.map((c) => c.id)).toEqual(['june', 'may']);
    expect(ranked.pool[1].score).toBeGreaterThan(ranked.pool[0].score);
  });

  it('an undated question asks for no range and keeps its scores', async () => {
    const calls: Array<OccurredRange | undefined> = [];
    const sut = retrieverOver(calls, { candidates: [window('june', JUNE)], timings });

    const ranked = await sut.retrieve('What did we say about the desk?', {}, 20, () => 500, {});

    expect(calls).toEqual([undefined]);
    expect(ranked.pool.map((c) => [c.id, c.score])).toEqual([['june', 0.6]]);
  });
});
