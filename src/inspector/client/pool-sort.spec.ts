import { poolColumns, sortRows } from './pool-sort';
import { type Candidate } from './types';

const row = (
  id: string,
  score: number,
  bm25Rank: number | null,
  overlap: number | null,
): Candidate => ({
  id,
  conversation_uid: `conv-${id}`,
  channel: 'sms',
  occurred_at: '2026-01-01T00:00:00.000Z',
  dense_rank: 1,
  cosine: score / 2,
  bm25_rank: bm25Rank,
  bm25_score: bm25Rank === null ? null : 10 / bm25Rank,
  components: overlap === null ? null : { overlap, rank: score },
  score,
  outcome: 'rank',
  merged_into: null,
  in_bundle: false,
  content: null,
});

describe('pool table sorting', () => {
  const rows = [row('a', 0.9, 2, 0.1), row('b', 0.5, null, 0.7), row('c', 0.7, 1, null)];
  const columns = poolColumns(rows);
  const column = (key: string) => columns.find((c) => c.key === key)!;

  it('has a column for each list signal and every component any row has', () => {
    expect(columns.map((c) => c.key)).toEqual(
      expect.arrayContaining([
        'score',
        'dense_rank',
        'cosine',
        'bm25_rank',
        'bm25_score',
        'component:overlap',
        'component:rank',
      ]),
    );
  });

  it('sorts numbers both ways and keeps missing values last either way', () => {
    const ids = (key: string, direction: 'ascending' | 'descending') =>
      sortRows(rows, column(key), direction).map((r) => r.id);
    expect(ids('score', 'descending')).toEqual(['a', 'c', 'b']);
    expect(ids('score', 'ascending')).toEqual(['b', 'c', 'a']);
    expect(ids('bm25_rank', 'ascending')).toEqual(['c', 'a', 'b']);
    expect(ids('bm25_rank', 'descending')).toEqual(['a', 'c', 'b']);
    expect(ids('component:overlap', 'descending')).toEqual(['b', 'a', 'c']);
  });

  it('keeps the incoming order on ties and does not touch its input', () => {
    const tied = [row('x', 0.5, 1, 0), row('y', 0.5, 1, 0), row('z', 0.5, 1, 0)];
    expect(sortRows(tied, column('score'), 'ascending').map((r) => r.id)).toEqual(['x', 'y', 'z']);
    expect(sortRows(tied, column('score'), 'descending').map((r) => r.id)).toEqual(['x', 'y', 'z']);
    expect(rows.map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });
});
