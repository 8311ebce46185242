import { Database } from '@app/database';

import { postingRow } from '../../../../test/support/posting-rows';
import { PgVectorStore } from './pgvector.store';

const WORDS = 'order refund parcel courier invoice address table chair scratch leg delivery porch'
  .concat(' monday friday window ticket number colour walnut oak sofa cushion warranty receipt')
  .split(' ');

const row = (n: number, content?: string) => postingRow('narrow', WORDS, n, content);

const POSTINGS = [
  'podium_conversations_terms',
  'kb_source_chunks_terms',
  'kb_topic_summaries_terms',
];

/**
 * A posting's tf and document length in 2 bytes each (issue 42, migration 23): the bytes a
 * posting costs in the table and the term index, and that a window longer than a smallint
 * count is still written and found.
 */
describe('narrow posting counts (PGlite)', () => {
  const database = new Database({ dataDir: 'memory://' });
  const sut = new PgVectorStore(database);
  const rows = Array.from({ length: 600 }, (_, n) => row(n));

  beforeAll(async () => {
    await sut.init(8);
    await sut.upsert('conversations', rows);
  });
  afterAll(() => database.close());

  it('stores tf and the document length as smallint in every postings table', async () => {
    const types = await database.query<{ t: string; c: string; type: string }>(
      `SELECT c.relname AS t, a.attname AS c, format_type(a.atttypid, a.atttypmod) AS type
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
       WHERE c.relname = ANY($1::text[]) AND a.attname IN ('tf', 'doc_len') ORDER BY 1, 2`,
      [POSTINGS],
    );
    expect(types).toHaveLength(6);
    expect(types.every((r) => r.type === 'smallint')).toBe(true);
  });

  it('a posting and its (term, impact) entry cost fewer bytes than with 4-byte counts', async () => {
    // The same postings with int counts, built the same way, beside the real ones.
    await database.exec(`
      CREATE TEMP TABLE wide AS SELECT doc_id, term, tf::int AS tf, contact_uid,
        doc_len::int AS doc_len, impact FROM podium_conversations_terms;
      CREATE INDEX wide_term ON wide (term, impact DESC) INCLUDE (doc_id, tf, doc_len);
      CREATE TEMP TABLE narrow AS SELECT * FROM podium_conversations_terms;
      CREATE INDEX narrow_term ON narrow (term, impact DESC) INCLUDE (doc_id, tf, doc_len);`);
    const [size] = await database.query<{ wide: string; narrow: string }>(
      `SELECT pg_relation_size('wide') + pg_relation_size('wide_term') AS wide,
         pg_relation_size('narrow') + pg_relation_size('narrow_term') AS narrow`,
    );
    // ~8% less here (the real store: ~420 bytes a window less over the table and both indexes).
    expect(Number(size.narrow)).toBeLessThan(Number(size.wide) * 0.95);
  });

  it('writes a hostile window longer than a smallint count, its counts at 32,767, and finds it', async () => {
    // 40,000 repeats of one word and 40,000 distinct ones: both counts past 32,767.
    const many = Array.from({ length: 40_000 }, (_, i) => `walnut w${i.toString(36)}`).join(' ');
    const hostile = row(10_000, many);
    await expect(sut.upsert('conversations', [hostile])).resolves.toEqual({
      inserted: 1,
      skipped: 0,
    });
    const [posting] = await database.query<{ tf: number; doc_len: number }>(
      `SELECT tf, doc_len FROM podium_conversations_terms WHERE doc_id = $1 AND term = 'walnut'`,
      [hostile.id],
    );
    expect(posting).toEqual({ tf: 32767, doc_len: 32767 });
    const hits = await sut.lexicalSearch('conversations', {
      text: 'walnut',
      topK: 5,
      filter: { contact_uid: 'ctc_0' },
    });
    expect(hits.map((h) => h.id)).toContain(hostile.id);
  });
});
