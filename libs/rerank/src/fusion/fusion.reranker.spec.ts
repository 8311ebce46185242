import { FusionReranker } from './fusion.reranker';
import { explainFusion } from './fusion-score';

/** Distinct long candidates, like a /relevance pool of 20,000-character texts. */
const longPool = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: String(i),
    content: `candidate ${i}: `.padEnd(
      20_000,
      ' thanks for calling, your dining table ships on friday and the refund is issued.',
    ),
    denseScore: 0.5,
  }));

describe('FusionReranker', () => {
  const sut = new FusionReranker();

  it('scores a pool of long candidates by their words: the one about the question wins', async () => {
    const pool = longPool(6).map((candidate, i) =>
      i === 3
        ? { ...candidate, content: `when will my dining table ship? ${candidate.content}` }
        : candidate,
    );
    const scores = await sut.score('when does the dining table ship', pool);
    expect(scores).toHaveLength(6);
    expect(scores.every(Number.isFinite)).toBe(true);
    const best = scores.indexOf(Math.max(...scores));
    expect(best).toBe(3);
    // The other five are alike apart from their number: alike scores.
    const rest = scores.filter((_, i) => i !== 3);
    expect(Math.max(...rest) - Math.min(...rest)).toBeLessThan(1e-9);
    expect(scores[3]).toBeGreaterThan(Math.max(...rest));
  });

  it('names the components of its own options (custom weights change them)', async () => {
    const pool = [
      { id: 'a', content: 'your dining table ships friday', denseScore: 0.8, denseRank: 1 },
      { id: 'b', content: 'thanks for calling', denseScore: 0.3, lexicalRank: 1, lexicalScore: 2 },
    ];
    const query = 'when does the table ship';
    const parts = sut.components(query, pool);
    expect(parts).toHaveLength(2);
    // Every breakdown field but the score itself.
    const { score, ...rest } = explainFusion(query, pool)[0];
    expect(Object.keys(parts[0]).sort()).toEqual(Object.keys(rest).sort());
    expect(score).toBeGreaterThan(0);
    expect(parts[0].cosine).toBe(0.8);
    expect(parts[1].lexical).toBe(1);
    const custom = new FusionReranker({ cosineWeight: 0 });
    expect(custom.components(query, pool)[0].relevance).not.toBe(parts[0].relevance);
    await expect(custom.score(query, pool)).resolves.toHaveLength(2);
  });

  it('yields to the event loop between long candidates and stops once the caller gives up', async () => {
    const controller = new AbortController();
    setImmediate(() => controller.abort());
    await expect(
      sut.score('when does the table ship', longPool(20), controller.signal),
    ).rejects.toMatchObject({ code: 'rerank_failed' });
  });

  it('rejects at once when the deadline has already passed', async () => {
    await expect(
      sut.score('q', [{ id: '1', content: 'short' }], AbortSignal.abort()),
    ).rejects.toMatchObject({ code: 'rerank_failed' });
  });
});
