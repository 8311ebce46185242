import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadBeir } from './beir';
import { meanMetrics, queryMetrics } from './metrics';

describe('queryMetrics', () => {
  const relevant = new Map([
    ['d2', 1],
    ['d9', 2],
  ]);

  it('scores hit and recall at k, MRR and graded nDCG at 10', () => {
    const m = queryMetrics(['d1', 'd2', 'd3', 'd9'], relevant, 2);
    expect(m.hit).toBe(1);
    expect(m.recall).toBe(0.5);
    expect(m.mrr10).toBe(0.5);
    const dcg = 1 / Math.log2(3) + 3 / Math.log2(5);
    expect(m.ndcg10).toBeCloseTo(dcg / (3 + 1 / Math.log2(3)), 10);
  });

  it('gives zeros when nothing relevant is ranked, and averages per query', () => {
    expect(queryMetrics(['x'], relevant, 5)).toEqual({ hit: 0, recall: 0, mrr10: 0, ndcg10: 0 });
    const perfect = queryMetrics(['d9', 'd2'], relevant, 5);
    expect(perfect.ndcg10).toBe(1);
    expect(meanMetrics([perfect, queryMetrics([], relevant, 5)], 5)).toEqual({
      'hit@5': 0.5,
      'recall@5': 0.5,
      'mrr@10': 0.5,
      'ndcg@10': 0.5,
    });
  });
});

describe('loadBeir', () => {
  it('reads corpus, queries and qrels, keeping only judged queries with a positive', () => {
    const dir = mkdtempSync(join(tmpdir(), 'beir-'));
    writeFileSync(
      join(dir, 'corpus.jsonl'),
      '{"_id":"d1","title":"T","text":"one"}\n{"_id":"d2","text":"two"}\n{"_id":"d3","text":" "}\n',
    );
    writeFileSync(
      join(dir, 'queries.jsonl'),
      '{"_id":"q1","text":"first?"}\n{"_id":"q2","text":"second?"}\n{"_id":"q3","text":"third?"}\n',
    );
    writeFileSync(join(dir, 'qrels.tsv'), 'query-id\tcorpus-id\tscore\nq1\td2\t1\nq2\td1\t0\n');
    const set = loadBeir(dir);
    expect(set.corpus.map((d) => [d.id, d.title])).toEqual([
      ['d1', 'T'],
      ['d2', ''],
    ]);
    expect(set.queries).toEqual([{ id: 'q1', text: 'first?' }]);
    expect([...set.qrels.get('q1')!]).toEqual([['d2', 1]]);
  });
});
