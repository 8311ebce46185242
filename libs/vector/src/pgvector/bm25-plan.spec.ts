import { contentHash, uuidFromHash } from '@app/common';
import { Database } from '@app/database';

import { type VectorRecord } from '../interfaces/vector-store.interface';
import { bm25Ctes } from './bm25';
import { PgVectorStore } from './pgvector.store';

const TERMS = [
  'refund',
  'order',
  'delivery',
  'address',
  'invoice',
  'parcel',
  'courier',
  'tracking',
];

const row = (n: number, contact: string): VectorRecord<'conversations'> => ({
  id: uuidFromHash(contentHash(`plan-${n}`)),
  // Every row holds every query term: each term's read returns all of the contact's rows.
  content: `${TERMS.join(' ')} note ${n}`,
  embedding: Array.from({ length: 8 }, (_, i) => (i === n % 8 ? 1 : 0)),
  payload: {
    contact_uid: contact,
    location_uid: 'loc_a',
    conversation_uid: `conv_${n}`,
    channel: 'sms',
    occurred_at: new Date(Date.UTC(2026, 0, 1 + (n % 28))).toISOString(),
  },
});

interface PlanNode {
  'Node Type': string;
  'CTE Name'?: string;
  'Relation Name'?: string;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/** The most times any scan of the CTE or table `name` ran in the plan. */
function maxLoops(node: PlanNode, name: string): number {
  const own = node['CTE Name'] === name || node['Relation Name'] === name;
  return Math.max(
    own ? (node['Actual Loops'] ?? 0) : 0,
    ...(node.Plans ?? []).map((child) => maxLoops(child, name)),
  );
}

/**
 * The BM25 statement under a cached generic plan, as a prepared statement runs from its sixth
 * call: the plan must not rescan the per-term statistics once per posting (issue 42: that
 * cost the heaviest contact 138 of a 148 ms statement at 100k windows).
 */
describe('BM25 statement under a generic plan (PGlite)', () => {
  const database = new Database({ dataDir: 'memory://' });
  const store = new PgVectorStore(database);

  beforeAll(async () => {
    await store.init(8);
    await store.upsert(
      'conversations',
      Array.from({ length: 150 }, (_, n) => row(n, 'ctc_busy')),
    );
  });
  afterAll(() => database.close());

  it.each([
    ['contact', { contactParam: '$3' }, ['ctc_busy']],
    [
      'contact in a location',
      { contactParam: '$3', locationsParam: '$4' },
      ['ctc_busy', ['loc_a']],
    ],
    ['no filter', {}, []],
  ])('%s: each statistics row is read once, not once per posting', async (_, filter, extra) => {
    const ctes = bm25Ctes({
      collection: 'conversations',
      termsParam: '$1',
      limitParam: '$2',
      ...filter,
    });
    const plan = await database.transaction(async (tx) => {
      await tx.exec(`SET LOCAL plan_cache_mode = force_generic_plan`);
      const types = ['text[]', 'int', ...extra.map((v) => (Array.isArray(v) ? 'text[]' : 'text'))];
      await tx.exec(`PREPARE bm25_plan(${types.join(', ')}) AS
        WITH ${ctes} SELECT doc_id, score FROM bm25`);
      const literal = (v: unknown) =>
        Array.isArray(v) ? `ARRAY[${v.map((x) => `'${String(x)}'`).join(',')}]` : `'${String(v)}'`;
      const args = [TERMS, 20, ...extra].map(literal).join(', ');
      const rows = await tx.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE bm25_plan(${args})`,
      );
      await tx.exec(`DEALLOCATE bm25_plan`);
      return rows[0]['QUERY PLAN'][0].Plan;
    });
    // 150 rows × 8 terms = 1,200 postings; a scan per posting would loop 1,200 times.
    expect(maxLoops(plan, 'lx_df')).toBeLessThanOrEqual(1);
    for (const statistics of ['lexical_contact_stats', 'lexical_doc_stats']) {
      expect(maxLoops(plan, statistics)).toBeLessThanOrEqual(1);
    }
  });
});
