import { FusionReranker } from './fusion.reranker';
import { fusionScores } from './fusion-score';

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

  it('scores a pool of long candidates exactly as the fusion formula does', async () => {
    const pool = longPool(6);
    await expect(sut.score('when does the table ship', pool)).resolves.toEqual(
      fusionScores('when does the table ship', pool, new FusionReranker()['options']),
    );
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
