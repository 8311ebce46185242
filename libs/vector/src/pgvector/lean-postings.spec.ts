import { Database } from '@app/database';

import { postingRow } from '../../../../test/support/posting-rows';
import { PgVectorStore } from './pgvector.store';

const WORDS = [
  'order',
  'refund',
  'parcel',
  'courier',
  'invoice',
  'address',
  'table',
  'chair',
  'scratch',
  'leg',
  'delivery',
  'porch',
  'monday',
  'friday',
  'window',
  'ticket',
  'number',
  'colour',
  'walnut',
  'oak',
  'sofa',
  'cushion',
  'warranty',
  'receipt',
  'tracking',
  'depot',
  'driver',
  'signature',
];

/** ~27 distinct terms a row, as a conversation window has (bench:scale: 27.4 on average). */
const row = (n: number) => postingRow('lean', WORDS, n);

/**
 * What each posting costs on disk, and that the cheaper lookup index keeps the postings'
 * invariants (issue 42, migration 20): deletes by document find them through a deduplicated
 * `(doc_id)` index, and a document's postings stay one per distinct term without a key
 * that enforced it.
 */
describe('postings by document (PGlite)', () => {
  const database = new Database({ dataDir: 'memory://' });
  const sut = new PgVectorStore(database);
  const rows = Array.from({ length: 600 }, (_, n) => row(n));
  const bytes = async (index: string) =>
    Number(
      (
        await database.query<{ b: string }>(`SELECT pg_relation_size($1::regclass) AS b`, [index])
      )[0].b,
    );

  beforeAll(async () => {
    await sut.init(8);
    await sut.upsert('conversations', rows);
    await database.exec('ANALYZE podium_conversations_terms');
  });
  afterAll(() => database.close());

  it('finds a document’s postings through an index a quarter the size of the term index', async () => {
    // The index deletes by document use: the one whose first column is doc_id.
    const [byDoc] = await database.query<{ name: string; unique: boolean }>(
      `SELECT c.relname AS name, i.indisunique AS unique FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
       WHERE i.indrelid = 'podium_conversations_terms'::regclass AND a.attname = 'doc_id'`,
    );
    expect(byDoc).toBeDefined();
    // Before migration 20 it was the (doc_id, term) primary key: about the term index's size.
    expect(await bytes(byDoc.name)).toBeLessThan(
      (await bytes('podium_conversations_terms_term_impact')) / 4,
    );
    expect(byDoc.unique).toBe(false);
  });

  it('a delete by document reads the index, not every posting', async () => {
    const plan = await database.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN DELETE FROM podium_conversations_terms WHERE doc_id = ANY($1::uuid[])`,
      [[rows[7].id, rows[8].id]],
    );
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toMatch(/Index Scan|Bitmap Index Scan/);
    expect(text).not.toMatch(/Seq Scan/);
  });

  it('keeps one posting per distinct term when the same rows arrive again, at once', async () => {
    await Promise.all([
      sut.upsert('conversations', rows.slice(0, 50)),
      sut.upsert('conversations', rows.slice(25, 75)),
    ]);
    const [dupes] = await database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT doc_id, term FROM podium_conversations_terms
       GROUP BY doc_id, term HAVING count(*) > 1) d`,
    );
    expect(dupes.n).toBe(0);
    const [{ n }] = await database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM podium_conversations_terms WHERE doc_id = $1`,
      [rows[30].id],
    );
    expect(n).toBe(WORDS.length + 1);
  });

  it('a replaced window takes its postings with it', async () => {
    const gone = rows[40];
    await sut.replaceWindows([], { ids: [gone.id] });
    const [{ n }] = await database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM podium_conversations_terms WHERE doc_id = $1`,
      [gone.id],
    );
    expect(n).toBe(0);
  });
});
