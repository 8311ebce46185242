import { contentHash, uuidFromHash } from '@app/common';
import { Database } from '@app/database';

import { type VectorRecord } from '../interfaces/vector-store.interface';
import { PgVectorStore } from './pgvector.store';
import { denseSql, filterParams, toVectorParam } from './row-sql';

const DAY = 86_400_000;
const START = Date.UTC(2020, 0, 1);

/** One contact's long history: a window a day for 3,000 days, and a neighbour's. */
const row = (n: number, contact: string): VectorRecord<'conversations'> => ({
  id: uuidFromHash(contentHash(`occurred-plan-${contact}-${n}`)),
  content: `note ${n}`,
  embedding: Array.from({ length: 8 }, (_, i) => (i === n % 8 ? 1 : 0.1)),
  payload: {
    contact_uid: contact,
    location_uid: 'loc_a',
    conversation_uid: `conv_${n}`,
    channel: 'sms',
    occurred_at: new Date(START + n * DAY).toISOString(),
  },
});

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Actual Rows'?: number;
  Plans?: PlanNode[];
}
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

/**
 * A dated search of a large history reads the range's windows through
 * `(contact_uid, occurred_at)`, not every window of the contact (migration 22).
 */
describe('the dense leg of a dated search (PGlite)', () => {
  const database = new Database({ dataDir: 'memory://' });
  const store = new PgVectorStore(database);

  beforeAll(async () => {
    await store.init(8);
    const rows = Array.from({ length: 3000 }, (_, n) => row(n, 'ctc_long'));
    for (let i = 0; i < rows.length; i += 500) {
      await store.upsert('conversations', rows.slice(i, i + 500));
    }
    await store.upsert(
      'conversations',
      Array.from({ length: 200 }, (_, n) => row(n, 'ctc_other')),
    );
    await database.query('ANALYZE podium_conversations');
  });
  afterAll(() => database.close());

  it('is an index range scan over the contact and the range, reading only the range', async () => {
    const params: unknown[] = [toVectorParam([1, 0, 0, 0, 0, 0, 0, 0]), 20];
    const filter = filterParams(
      'conversations',
      {
        contact_uid: 'ctc_long',
        occurred_at: {
          from: new Date(START + 100 * DAY).toISOString(),
          to: new Date(START + 110 * DAY).toISOString(),
        },
      },
      params,
    );
    const sql = `WITH q AS (SELECT $1::vector AS v) ${denseSql('conversations', filter, '$2', false)}`;
    const [{ 'QUERY PLAN': plan }] = await database.query<{
      'QUERY PLAN': Array<{ Plan: PlanNode }>;
    }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
    const scans = nodes(plan[0].Plan).filter((n) =>
      n['Index Name']?.startsWith('podium_conversations'),
    );

    expect(scans.map((n) => n['Index Name'])).toEqual(['podium_conversations_contact_occurred']);
    expect(scans[0]['Index Cond']).toMatch(/occurred_at >= .* AND .*occurred_at < /);
    expect(scans[0]['Actual Rows']).toBe(10);
  });
});
