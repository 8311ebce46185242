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

/**
 * Postings read per query term, best first by their `impact`: bounds a query's cost for a
 * term that a large history repeats in thousands of documents. Such a term's idf is low, so
 * its weaker postings rarely decide the top of a pool (the documents that also match the
 * rarer terms are found through those terms' postings).
 */
export const POSTINGS_PER_TERM = 1000;

export interface Bm25Sql {
  collection: CollectionName;
  /** Placeholder of the contact filter: statistics are then that contact's own. */
  contactParam?: string;
  /** Placeholder of the location filter (a text array). */
  locationsParam?: string;
  /** Placeholders of the query-term array and of the result limit. */
  termsParam: string;
  limitParam: string;
  /** Postings read per query term (default POSTINGS_PER_TERM). */
  postingsPerTerm?: number;
  /**
   * A condition on the posting `p` that excludes forgotten documents, applied inside each
   * term's read, before its cap and the result limit (so hidden rows never crowd them out).
   */
  visible?: string;
  /**
   * A condition on the document `d` (a time range), applied inside each term's read like the
   * location filter; the statistics stay the contact's or the collection's own.
   */
  documents?: string;
}

/**
 * Documents of a location scope read for its statistics (N and the average length): bounds
 * the cost on a large tenant, where N is then this many and idf only slightly flatter.
 */
export const SCOPE_STATS_DOCS = 5000;

/**
 * CTEs ending in `bm25(doc_id, score)`: Okapi BM25 (k1 1.2, b 0.75, Lucene's non-negative
 * idf ln(1 + (N − df + 0.5)/(df + 0.5)), the formula Qdrant's `modifier: idf` uses) over the
 * top `limit` documents. The statistics (N, the average length, each df) never reach past
 * what the query may read, so a score tells a location-bound caller nothing about another
 * tenant's words:
 *  - filtered by location (a bound key's scope, or a named location), they are the scope's
 *    own (with the contact: that contact's rows in the scope), counted from the scope's
 *    documents and from the postings the query reads anyway (so df is capped at
 *    `postingsPerTerm`, and N at SCOPE_STATS_DOCS);
 *  - filtered by contact only, they are that contact's own (maintained by triggers), so a
 *    term every message of this customer repeats weighs little;
 *  - otherwise they are the collection's (sharded totals, summed).
 * Postings carry their document's length and contact, so scoring never visits the documents:
 * the cost is bounded by terms × POSTINGS_PER_TERM whatever the size of the history or of the
 * corpus. Scores are relative: comparable within one query only.
 */
export function bm25Ctes(sql: Bm25Sql): string {
  const table = TABLES[sql.collection];
  const postings = `${table}_terms`;
  const contact = sql.contactParam;
  const locations = sql.locationsParam;
  const conditions = [
    ...(contact ? [`p.contact_uid = ${contact}`] : []),
    'p.term = f.term',
    ...(locations ? [`d.location_uid = ANY(${locations}::text[])`] : []),
    ...(sql.documents ? [sql.documents] : []),
    ...(sql.visible ? [sql.visible] : []),
  ].join(' AND ');
  // The location and the time live on the document: only a query filtered by them joins it,
  // inside the per-term scan, so the cap still counts postings the caller may see.
  const from =
    locations || sql.documents
      ? `${postings} p JOIN ${table} d ON d.id = p.doc_id`
      : `${postings} p`;
  // Each posting carries its term's df from the row that drove its read (`lx_post`): joining
  // the postings back to `lx_df` by term left the plan to the CTEs' estimates, and a cached
  // generic plan (prepared statements, from the sixth call) estimates one row for both, so it
  // rescanned `lx_df` once per posting: 6,341 postings × 14 terms, 138 of a 148 ms statement
  // for the heaviest contact at 100k windows (issue 42).
  const post = (terms: string, df: string) => `lx_post AS (SELECT t.doc_id, f.term, ${df} AS df,
          t.tf, t.doc_len FROM ${terms} f CROSS JOIN LATERAL
          (SELECT p.doc_id, p.tf, p.doc_len FROM ${from} WHERE ${conditions}
           ORDER BY p.impact DESC LIMIT ${sql.postingsPerTerm ?? POSTINGS_PER_TERM}) t),`;
  // `lx_stats` (one row) MATERIALIZED: inlined, a generic plan that expects one posting joins
  // it as a nested loop's inner side and probes the statistics again for every posting.
  let stats: string;
  if (locations) {
    stats = `lx_scope AS (SELECT d.term_count FROM ${table} d
          WHERE d.location_uid = ANY(${locations}::text[])${contact ? ` AND d.contact_uid = ${contact}` : ''}
          LIMIT ${SCOPE_STATS_DOCS}),
      lx_stats AS MATERIALIZED (SELECT count(*)::float8 AS n,
          greatest(coalesce(avg(term_count), 1), 1)::float8 AS avgdl FROM lx_scope),
      lx_terms AS (SELECT DISTINCT term FROM unnest(${sql.termsParam}::text[]) AS term),
      ${post('lx_terms', 'NULL::float8')}
      lx_scored AS (SELECT doc_id, count(*) OVER (PARTITION BY term)::float8 AS df, tf, doc_len
          FROM lx_post),`;
  } else if (contact) {
    stats = `lx_stats AS MATERIALIZED (SELECT docs::float8 AS n, greatest(terms::float8 / greatest(docs, 1), 1) AS avgdl
          FROM lexical_contact_stats WHERE contact_uid = ${contact}),
      lx_df AS (SELECT term, df::float8 AS df FROM lexical_contact_term_stats
          WHERE contact_uid = ${contact} AND term = ANY(${sql.termsParam}::text[])),
      ${post('lx_df', 'f.df')}
      lx_scored AS (SELECT * FROM lx_post),`;
  } else {
    stats = `lx_stats AS MATERIALIZED (SELECT sum(docs)::float8 AS n,
          greatest(sum(terms)::float8 / greatest(sum(docs), 1), 1) AS avgdl
          FROM lexical_doc_stats WHERE collection = '${sql.collection}'),
      lx_df AS (SELECT term, sum(df)::float8 AS df FROM lexical_term_stats
          WHERE collection = '${sql.collection}' AND term = ANY(${sql.termsParam}::text[])
          GROUP BY term HAVING sum(df) > 0),
      ${post('lx_df', 'f.df')}
      lx_scored AS (SELECT * FROM lx_post),`;
  }
  return `${stats}
      bm25 AS (SELECT p.doc_id,
          sum(ln(1 + (s.n - p.df + 0.5) / (p.df + 0.5)) * p.tf * ${BM25_K1 + 1}
            / (p.tf + ${BM25_K1} * (1 - ${BM25_B} + ${BM25_B} * p.doc_len / s.avgdl))) AS score
        FROM lx_scored p CROSS JOIN lx_stats s
        GROUP BY p.doc_id ORDER BY score DESC, p.doc_id LIMIT ${sql.limitParam})`;
}
