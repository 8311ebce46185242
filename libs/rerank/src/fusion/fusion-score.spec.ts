import fc from 'fast-check';

import { type RerankCandidate } from '../interfaces/reranker.interface';
import { DEFAULT_FUSION_OPTIONS, explainFusion, fusionScores } from './fusion-score';

const window = (lines: string[]): string => lines.join('\n');

const PLEASANTRIES = window([
  'agent: Thanks for reaching out, happy to help!',
  'customer: Thank you so much, you have been very helpful.',
  "agent: You're welcome. Is there anything else I can help you with?",
  "customer: No, that's all. Have a great day!",
]);

const REPLACEMENT_LEG = window([
  'customer: The dining table arrived but one leg is scratched along the bottom.',
  'agent: We can send a touch-up kit or replace the leg under warranty.',
  'customer: Replace the leg please.',
  'agent: A replacement leg ships in five business days, no charge.',
]);

const scoreOf = (query: string, candidates: RerankCandidate[], id: string): number => {
  const scores = fusionScores(query, candidates);
  return scores[candidates.findIndex((c) => c.id === id)];
};

describe('fusionScores', () => {
  it('ranks a real-content window above a pleasantries-only window with a better dense rank', () => {
    // A query with no words in either window: only retrieval signals and the penalty decide.
    const query = 'so what did we agree on last time?';
    const sut: RerankCandidate[] = [
      { id: 'boiler', content: PLEASANTRIES, denseRank: 1, denseScore: 0.64 },
      { id: 'content', content: REPLACEMENT_LEG, denseRank: 2, denseScore: 0.58 },
    ];
    expect(scoreOf(query, sut, 'content')).toBeGreaterThan(scoreOf(query, sut, 'boiler'));
  });

  it('barely penalises a content window that ends with a sign-off', () => {
    const query = 'replacement leg for the scratched table';
    const plain = { id: 'a', content: REPLACEMENT_LEG, denseRank: 1, denseScore: 0.7 };
    const signedOff = {
      ...plain,
      content: `${REPLACEMENT_LEG}\ncustomer: Great, thanks! Have a great day!`,
    };
    const [withoutSignOff] = fusionScores(query, [plain]);
    const [withSignOff] = fusionScores(query, [signedOff]);
    expect(withSignOff).toBeLessThanOrEqual(withoutSignOff);
    expect(withSignOff).toBeGreaterThan(withoutSignOff * 0.97);
  });

  it('prefers a candidate both lists found over one list at a similar rank', () => {
    const query = 'when does my order ship';
    const sut: RerankCandidate[] = [
      {
        id: 'dense-only',
        content: 'agent: The workshop finished it yesterday.',
        denseRank: 1,
        denseScore: 0.61,
      },
      {
        id: 'both',
        content: 'agent: The workshop finishes it next week.',
        denseRank: 2,
        denseScore: 0.6,
        lexicalRank: 2,
      },
      { id: 'lexical-only', content: 'agent: The workshop starts it on Monday.', lexicalRank: 1 },
    ];
    const both = scoreOf(query, sut, 'both');
    expect(both).toBeGreaterThan(scoreOf(query, sut, 'dense-only'));
    expect(both).toBeGreaterThan(scoreOf(query, sut, 'lexical-only'));
  });

  it('keeps the size of a BM25 lead that ranks alone would hide', () => {
    // Two windows swap ranks across the lists; only the score gaps tell them apart.
    const query = 'which colour did I pick for the sofa';
    const pool = (lexicalLead: number): RerankCandidate[] => [
      {
        id: 'dense-first',
        content: 'agent: The sofa comes in three fabrics.',
        denseRank: 1,
        denseScore: 0.66,
        lexicalRank: 2,
        lexicalScore: 5,
      },
      {
        id: 'lexical-first',
        content: 'agent: The sofa comes in three fabrics too.',
        denseRank: 2,
        denseScore: 0.6,
        lexicalRank: 1,
        lexicalScore: 5 + lexicalLead,
      },
    ];
    const narrow = pool(0.1);
    expect(scoreOf(query, narrow, 'dense-first')).toBeGreaterThan(
      scoreOf(query, narrow, 'lexical-first'),
    );
    const wide = pool(10);
    expect(scoreOf(query, wide, 'lexical-first')).toBeGreaterThan(
      scoreOf(query, wide, 'dense-first'),
    );
  });

  it('reads the lexical score relative to the pool, and drops it when no list has one', () => {
    const scaled = (factor: number) =>
      explainFusion('sofa colour', [
        { id: 'a', content: 'sofa colour', lexicalRank: 1, lexicalScore: 8 * factor },
        { id: 'b', content: 'sofa', lexicalRank: 2, lexicalScore: 2 * factor },
        { id: 'c', content: 'chair', denseRank: 1, denseScore: 0.4 },
      ]);
    expect(scaled(1).map((b) => b.lexical)).toEqual([1, 0.25, 0]);
    // The engine's scale (Qdrant's or Postgres' BM25) does not change the fused order.
    expect(scaled(1000).map((b) => b.score)).toEqual(scaled(1).map((b) => b.score));
    const [bare] = explainFusion('sofa colour', [{ id: 'p', content: 'sofa colour' }]);
    expect(bare.lexical).toBeNull();
  });

  it('lets recency break a near-tie toward the newer window', () => {
    const query = 'delivery slot for the sofa';
    const sut: RerankCandidate[] = [
      {
        id: 'old',
        content: 'customer: Book a delivery slot for the sofa.',
        denseRank: 1,
        denseScore: 0.71,
        lexicalRank: 1,
        occurredAt: '2025-01-10T10:00:00Z',
      },
      {
        id: 'new',
        content: 'customer: Book a delivery slot for the sofa.',
        denseRank: 2,
        denseScore: 0.7,
        lexicalRank: 2,
        occurredAt: '2026-01-10T10:00:00Z',
      },
    ];
    expect(scoreOf(query, sut, 'new')).toBeGreaterThan(scoreOf(query, sut, 'old'));
  });

  it('never lets recency flip a clear relevance gap', () => {
    const query = 'delivery slot for the leather sofa';
    const sut: RerankCandidate[] = [
      {
        id: 'old-relevant',
        content: 'customer: I want a delivery slot for the leather sofa.',
        denseRank: 1,
        denseScore: 0.78,
        lexicalRank: 1,
        occurredAt: '2022-03-01T10:00:00Z',
      },
      {
        id: 'new-weak',
        content: 'customer: Do you sell rugs?',
        denseRank: 6,
        denseScore: 0.41,
        occurredAt: '2026-03-01T10:00:00Z',
      },
    ];
    expect(scoreOf(query, sut, 'old-relevant')).toBeGreaterThan(scoreOf(query, sut, 'new-weak'));
  });

  it('scores a standalone pair (no ranks) so a relevant candidate beats an unrelated one', () => {
    const query = 'what is the refund policy for chairs';
    const relevant =
      'agent: Chairs can be returned within 30 days with the receipt for a full refund.';
    const unrelated = 'agent: Your leather sofa delivery is booked for Thursday afternoon.';
    const [r] = fusionScores(query, [{ id: 'r', content: relevant }]);
    const [u] = fusionScores(query, [{ id: 'u', content: unrelated }]);
    expect(r).toBeGreaterThan(0.5);
    expect(u).toBeLessThan(0.1);

    // With the dense cosine as well, both signals are averaged and the order still holds.
    const [rd] = fusionScores(query, [{ id: 'r', content: relevant, denseScore: 0.62 }]);
    const [ud] = fusionScores(query, [{ id: 'u', content: unrelated, denseScore: 0.08 }]);
    expect(rd).toBeGreaterThan(ud);
    expect(explainFusion(query, [{ id: 'r', content: relevant }])[0]).toMatchObject({
      rank: null,
      cosine: null,
      agreement: null,
      recency: null,
    });
  });

  it('is deterministic and independent of input order', () => {
    const query = 'scratched table leg';
    const pool: RerankCandidate[] = [
      {
        id: 'a',
        content: REPLACEMENT_LEG,
        denseRank: 1,
        denseScore: 0.7,
        lexicalRank: 2,
        occurredAt: '2026-04-11T17:35:00Z',
      },
      {
        id: 'b',
        content: PLEASANTRIES,
        denseRank: 2,
        denseScore: 0.5,
        occurredAt: '2026-06-01T09:20:00Z',
      },
      {
        id: 'c',
        content: 'customer: Is the walnut table in stock?',
        lexicalRank: 1,
        occurredAt: '2026-03-02T15:10:00Z',
      },
    ];
    const first = fusionScores(query, pool);
    expect(fusionScores(query, pool)).toEqual(first);
    const reversed = fusionScores(query, [...pool].reverse());
    expect([...reversed].reverse()).toEqual(first);
    first.forEach((s) => {
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(1);
    });
  });

  it('lets options switch the penalty and recency off', () => {
    const [penalised] = fusionScores('anything', [
      { id: 'b', content: PLEASANTRIES, denseScore: 0.6 },
    ]);
    const [unpenalised] = fusionScores(
      'anything',
      [{ id: 'b', content: PLEASANTRIES, denseScore: 0.6 }],
      {
        boilerplatePenalty: 0,
      },
    );
    expect(unpenalised).toBeGreaterThan(penalised);
    expect(DEFAULT_FUSION_OPTIONS.recencyWeight).toBeLessThan(0.1);
  });

  it('returns an empty array for an empty pool', () => {
    expect(fusionScores('query', [])).toEqual([]);
  });

  it('always returns one finite score in [0, 1] per candidate (property)', () => {
    const rank = fc.option(
      fc.oneof(fc.integer({ min: -3, max: 100 }), fc.constantFrom(NaN, Infinity)),
      {
        nil: undefined,
      },
    );
    const candidate = fc.record({
      id: fc.string(),
      content: fc.oneof(
        fc.string(),
        fc.lorem({ mode: 'sentences' }),
        fc.constantFrom(PLEASANTRIES, ''),
      ),
      denseScore: fc.option(
        fc.oneof(fc.double({ min: -2, max: 2 }), fc.constantFrom(NaN, -Infinity)),
        {
          nil: undefined,
        },
      ),
      denseRank: rank,
      lexicalRank: rank,
      occurredAt: fc.option(
        fc.oneof(
          fc
            .date({ min: new Date('2000-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
            .map((d) => d.toISOString()),
          fc.string(),
        ),
        { nil: undefined },
      ),
    });
    // Options stay inside the documented ranges; scores must hold up across all of them.
    const weight = fc.double({ min: 0, max: 5, noNaN: true });
    const options = fc.record(
      {
        k: fc.double({ min: 0, max: 100, noNaN: true }),
        denseRankWeight: weight,
        lexicalRankWeight: weight,
        rankWeight: weight,
        cosineWeight: weight,
        overlapWeight: weight,
        agreementWeight: weight,
        boilerplatePenalty: fc.double({ min: 0, max: 1, noNaN: true }),
        boilerplateExponent: fc.double({ min: 0.5, max: 4, noNaN: true }),
        recencyWeight: fc.double({ min: 0, max: 1, noNaN: true }),
        recencyHalfLifeDays: fc.double({ min: 0, max: 1000, noNaN: true }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        fc.string(),
        fc.array(candidate, { maxLength: 25 }),
        options,
        (query, candidates, o) => {
          const scores = fusionScores(query, candidates, o);
          expect(scores).toHaveLength(candidates.length);
          for (const s of scores) {
            expect(Number.isFinite(s)).toBe(true);
            expect(s).toBeGreaterThanOrEqual(0);
            expect(s).toBeLessThanOrEqual(1);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
