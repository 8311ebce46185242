import { NoneReranker } from './none.reranker';

describe('NoneReranker', () => {
  it('keeps the incoming order with strictly decreasing scores in (0, 1]', async () => {
    const sut = new NoneReranker();
    const scores = await sut.score('q', [
      { id: 'a', content: 'x', denseScore: 0.2 },
      { id: 'b', content: 'y', denseScore: 0.9 },
      { id: 'c', content: 'z', lexicalRank: 1 },
      { id: 'd', content: 'w' },
    ]);
    expect(scores).toEqual([1, 0.75, 0.5, 0.25]);
    await expect(sut.score('q', [])).resolves.toEqual([]);
  });
});
