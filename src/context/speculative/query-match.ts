import { terms } from '@app/common';

/**
 * "Closely" for serving a final from speculation, on the queries' normalised terms (the
 * lexical normaliser the BM25 leg uses: lower case, stop words out, plurals and -ed/-ing
 * merged): the speculated query holds every term of the final one, and their Jaccard
 * similarity is at least the threshold. Two queries with the same terms search the same BM25
 * postings and embed to nearly the same vector, so the pool is nearly the same; a final term
 * the speculation lacked (often the last word said, the one that names the thing) is never
 * assumed away. Queries with no content terms at all match only when their text is the same.
 */
export class QueryTerms {
  readonly terms: ReadonlySet<string>;
  readonly text: string;

  constructor(query: string) {
    this.text = query.trim().replace(/\s+/g, ' ').toLowerCase();
    this.terms = new Set(terms(query));
  }

  /** Every term of this query is in `other` (no content terms: the same text). */
  within(other: QueryTerms): boolean {
    if (this.terms.size === 0) {
      return this.text === other.text;
    }
    for (const term of this.terms) {
      if (!other.terms.has(term)) {
        return false;
      }
    }
    return true;
  }

  /**
   * A search run on `searched` serves this query: it searched every term of this one (a term
   * it lacked may be the one that finds the answer) and not many more (Jaccard ≥ `threshold`).
   */
  servedBy(searched: QueryTerms, threshold: number): boolean {
    return this.within(searched) && this.similarity(searched) >= threshold;
  }

  similarity(other: QueryTerms): number {
    if (this.terms.size === 0 || other.terms.size === 0) {
      return this.text === other.text ? 1 : 0;
    }
    let shared = 0;
    for (const term of this.terms) {
      if (other.terms.has(term)) {
        shared++;
      }
    }
    return shared / (this.terms.size + other.terms.size - shared);
  }
}

/**
 * The share of `query`'s terms that `text` holds: how well an earlier turn of the call answers
 * this one (a subset of a long turn counts fully, unlike Jaccard).
 */
export function coverage(query: QueryTerms, text: QueryTerms): number {
  if (query.terms.size === 0) {
    return 0;
  }
  let shared = 0;
  for (const term of query.terms) {
    if (text.terms.has(term)) {
      shared++;
    }
  }
  return shared / query.terms.size;
}
