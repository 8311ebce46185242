import { BM25_B, BM25_K1, termFrequencies, terms } from '@app/common';

import { type CollectionName, type VectorRecord } from '../interfaces/vector-store.interface';
import { TABLES } from './tables';

/** The distinct terms of a query, as the postings store them (shared normaliser). */
export const queryTerms = (text: string): string[] => [...new Set(terms(text))];

/** The postings of `records` as parallel arrays for `unnest`, plus each row's length. */
export function postingsOf(records: VectorRecord[]): {
  docIds: string[];
  terms: string[];
  tfs: number[];
  lengths: number[];
} {
  const out = { docIds: [] as string[], terms: [] as string[], tfs: [] as number[] };
  const seen = new Set<string>();
  const lengths = records.map((record) => {
    const { length, tf } = termFrequencies(record.content);
    // A batch may repeat an id; the insert keeps one row, so its postings go in once.
    if (seen.has(record.id)) {
      return length;
    }
    seen.add(record.id);
    for (const [term, count] of tf) {
      out.docIds.push(record.id);
      out.terms.push(term);
      out.tfs.push(count);
    }
    return length;
  });
  return { ...out, lengths };
}

export interface Bm25Sql {
  collection: CollectionName;
  /** The store's WHERE clause for the filter, or '' (no filter). */
  where: string;
  /** True when the filter names a contact: statistics are then that contact's own. */
  perContact: boolean;
  /** Placeholders of the query-term array and of the result limit. */
  termsParam: string;
  limitParam: string;
}

/**
 * CTEs ending in `bm25(doc_id, score)`: Okapi BM25 (k1 1.2, b 0.75, Lucene's non-negative
 * idf ln(1 + (N − df + 0.5)/(df + 0.5)), the formula Qdrant's `modifier: idf` uses) over the
 * top `limit` documents. Filtered by contact, N, the average length and each df are counted
 * over that contact's rows at query time (a few dozen, through the contact btree and the
 * postings' primary key), so a term every message of this customer repeats weighs little;
 * otherwise they come from the collection totals the triggers maintain, and postings are
 * found through the term index. Scores are relative: comparable within one query only.
 */
export function bm25Ctes(sql: Bm25Sql): string {
  const table = TABLES[sql.collection];
  const postings = `${table}_terms`;
  const scope = sql.perContact
    ? `lx_docs AS (SELECT id, term_count FROM ${table} ${sql.where}),
      lx_stats AS (SELECT count(*)::float8 AS n,
          greatest(avg(term_count)::float8, 1) AS avgdl FROM lx_docs),
      lx_post AS (SELECT p.doc_id, p.term, p.tf, d.term_count FROM ${postings} p
          JOIN lx_docs d ON d.id = p.doc_id WHERE p.term = ANY(${sql.termsParam}::text[])),
      lx_df AS (SELECT term, count(*)::float8 AS df FROM lx_post GROUP BY term),`
    : `lx_stats AS (SELECT docs::float8 AS n,
          greatest(terms::float8 / greatest(docs, 1), 1) AS avgdl
          FROM lexical_doc_stats WHERE collection = '${sql.collection}'),
      lx_post AS (SELECT p.doc_id, p.term, p.tf, d.term_count FROM ${postings} p
          JOIN ${table} d ON d.id = p.doc_id
          WHERE p.term = ANY(${sql.termsParam}::text[]) ${sql.where.replace(/^WHERE/, 'AND')}),
      lx_df AS (SELECT term, df::float8 AS df FROM lexical_term_stats
          WHERE collection = '${sql.collection}' AND term = ANY(${sql.termsParam}::text[])),`;
  return `${scope}
      bm25 AS (SELECT p.doc_id,
          sum(ln(1 + (s.n - f.df + 0.5) / (f.df + 0.5)) * p.tf * ${BM25_K1 + 1}
            / (p.tf + ${BM25_K1} * (1 - ${BM25_B} + ${BM25_B} * p.term_count / s.avgdl))) AS score
        FROM lx_post p JOIN lx_df f ON f.term = p.term CROSS JOIN lx_stats s
        GROUP BY p.doc_id ORDER BY score DESC, p.doc_id LIMIT ${sql.limitParam})`;
}
