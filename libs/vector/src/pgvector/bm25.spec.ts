import { bm25Ctes, SCOPE_STATS_DOCS } from './bm25';

/** The statistics tables that count every location (or every location of a contact). */
const WIDE_STATISTICS = /lexical_(doc|term|contact|contact_term)_stats/;

const sql = (filter: { contactParam?: string; locationsParam?: string }) =>
  bm25Ctes({ collection: 'conversations', termsParam: '$1', limitParam: '$2', ...filter });

describe('bm25Ctes statistics', () => {
  it("scores a location-scoped search with the scope's own statistics, nothing wider", () => {
    for (const filter of [{ locationsParam: '$3' }, { contactParam: '$3', locationsParam: '$4' }]) {
      const sut = sql(filter);
      expect(sut).not.toMatch(WIDE_STATISTICS);
      // N and the average length: the scope's documents, a bounded read.
      expect(sut).toContain(`location_uid = ANY(${filter.locationsParam}::text[])`);
      expect(sut).toContain(`LIMIT ${SCOPE_STATS_DOCS}`);
    }
    expect(sql({ contactParam: '$3', locationsParam: '$4' })).toMatch(
      /lx_scope AS \([^,]*AND d\.contact_uid = \$3\s+LIMIT/,
    );
  });

  it("keeps the maintained statistics without a location: the contact's, else the collection's", () => {
    expect(sql({ contactParam: '$3' })).toMatch(
      /FROM lexical_contact_stats WHERE contact_uid = \$3/,
    );
    expect(sql({})).toMatch(/FROM lexical_doc_stats WHERE collection = 'conversations'/);
  });
});
