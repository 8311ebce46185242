import { contentHash, uuidFromHash } from '@app/common';
import { type Reranker } from '@app/rerank';
import {
  type CollectionName,
  type VectorFilter,
  type VectorHit,
  type VectorRecord,
  type VectorStore,
} from '@app/vector';

import { chunkText } from '../ingest/text-chunker';
import { type MergedCandidate, mergeLists } from '../retrieval/merge-lists';
import { type BeirSet } from './beir';
import { distinct, meanMetrics, type QueryMetrics, queryMetrics } from './metrics';

/** The four rankings compared side by side. */
export const METHODS = ['dense', 'lexical', 'hybrid', 'reranked'] as const;
export type Method = (typeof METHODS)[number];

export interface EvalDeps {
  store: VectorStore;
  reranker: Reranker;
  embedDocuments(texts: string[]): Promise<number[][]>;
  embedQuery(text: string): Promise<number[]>;
}

export type Progress = (phase: 'ingest' | 'query', done: number, total: number) => void;

/** Every method's ranking, plus the pool as the reranker saw it (ranks, cosines). */
export type RankedLists<C extends CollectionName> = Record<Method, Array<VectorHit<C>>> & {
  pool: Array<MergedCandidate<C>>;
};

/** Sees every query's lists and judgements (benchmarks keep them to tune fusion offline). */
export type PoolObserver = (
  query: string,
  ranked: RankedLists<'source_chunks'>,
  relevant: Map<string, number>,
) => void;

/**
 * Every method's ranking for one query from one hybrid round trip, as the service retrieves:
 * the dense list, the BM25 list, their RRF union (the pool) and the pool in reranker order.
 * A reranker failure leaves the pool order, as `/context` degrades.
 */
export async function rankAll<C extends CollectionName>(
  deps: Pick<EvalDeps, 'store' | 'reranker'>,
  collection: C,
  query: { text: string; embedding: number[]; poolK: number; filter?: VectorFilter },
): Promise<RankedLists<C>> {
  const { dense, lexical } = await deps.store.hybridSearch(collection, {
    embedding: query.embedding,
    text: query.text,
    topK: query.poolK,
    filter: query.filter,
  });
  const pool = mergeLists(dense, lexical).slice(0, query.poolK);
  const scores = await deps.reranker.score(query.text, pool).catch(() => null);
  const reranked = scores
    ? pool
        .map((c, i) => ({ c, s: scores[i] }))
        .sort((a, b) => b.s - a.s)
        .map((x) => x.c)
    : pool;
  return {
    dense,
    lexical,
    hybrid: pool.map((c) => c.hit),
    reranked: reranked.map((c) => c.hit),
    pool,
  };
}

export interface EvalReport {
  documents: number;
  chunks: number;
  queries: number;
  k: number;
  pool_k: number;
  reranker: string;
  methods: Record<Method, Record<string, number>>;
}

/**
 * Ingests a BEIR set into `source_chunks` (each document cut as `/ingest/kb` cuts a topic,
 * `topic_id` = the document id) and scores every query on every method. A document ranks
 * where its best chunk ranks. Run it on a throwaway store: it writes the set's rows.
 */
export async function runEval(
  set: BeirSet,
  deps: EvalDeps,
  options: {
    k: number;
    poolK: number;
    batch?: number;
    onProgress?: Progress;
    onPool?: PoolObserver;
  },
): Promise<EvalReport> {
  const records: Array<VectorRecord<'source_chunks'>> = [];
  const chunks = set.corpus.flatMap((doc) =>
    chunkText(doc.text).map((content, index) => ({ doc, content, index })),
  );
  const batch = options.batch ?? 128;
  for (let at = 0; at < chunks.length; at += batch) {
    const slice = chunks.slice(at, at + batch);
    const vectors = await deps.embedDocuments(slice.map((c) => c.content));
    records.length = 0;
    slice.forEach(({ doc, content, index }, i) =>
      records.push({
        id: uuidFromHash(contentHash('eval', doc.id, String(index), content)),
        content,
        embedding: vectors[i],
        payload: { topic_id: doc.id, title: doc.title, theme_id: null, chunk_index: index },
      }),
    );
    await deps.store.upsert('source_chunks', records);
    options.onProgress?.('ingest', Math.min(at + batch, chunks.length), chunks.length);
  }
  const perMethod = Object.fromEntries(METHODS.map((m) => [m, [] as QueryMetrics[]])) as Record<
    Method,
    QueryMetrics[]
  >;
  for (const [i, query] of set.queries.entries()) {
    const embedding = await deps.embedQuery(query.text);
    const ranked = await rankAll(deps, 'source_chunks', {
      text: query.text,
      embedding,
      poolK: options.poolK,
    });
    const relevant = set.qrels.get(query.id) ?? new Map<string, number>();
    options.onPool?.(query.text, ranked, relevant);
    for (const method of METHODS) {
      const docs = distinct(ranked[method].map((hit) => hit.payload.topic_id));
      perMethod[method].push(queryMetrics(docs, relevant, options.k));
    }
    options.onProgress?.('query', i + 1, set.queries.length);
  }
  return {
    documents: set.corpus.length,
    chunks: chunks.length,
    queries: set.queries.length,
    k: options.k,
    pool_k: options.poolK,
    reranker: deps.reranker.name,
    methods: Object.fromEntries(
      METHODS.map((m) => [m, meanMetrics(perMethod[m], options.k)]),
    ) as EvalReport['methods'],
  };
}

/** The report as an aligned text table, one row per method. */
export function formatTable(report: EvalReport): string {
  const columns = Object.keys(report.methods.dense);
  const rows = METHODS.map((m) => [
    m === 'reranked' ? `reranked (${report.reranker})` : m,
    ...columns.map((c) => report.methods[m][c].toFixed(3)),
  ]);
  const header = ['method', ...columns];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}
