import { Database } from '@app/database';
import { PgVectorStore } from '@app/vector';
import { bagOfWordsEmbedding } from './support/scale-corpus';
async function main() {
  const db = new Database({
    dataDir: 'memory://',
    databaseUrl: process.env.DATABASE_URL,
    statementTimeoutMs: 600000,
  } as never);
  await db.open(256);
  const store = new PgVectorStore(db);
  const orig = db.queryPrepared.bind(db);
  let explain = true;
  (db as any).queryPrepared = async (sql: string, params: unknown[]) => {
    if (explain && /WITH q AS/.test(sql)) {
      if (process.env.SHOWSQL) console.log(sql);
      const rows = await db.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
        params,
      );
      console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
    }
    return orig(sql, params);
  };
  const text =
    process.argv[3] ?? 'can you book a table at an italian restaurant for dinner tomorrow';
  const contact = process.argv[2] === '-' ? undefined : process.argv[2];
  const t0 = performance.now();
  explain = process.env.NOEXPLAIN ? false : true;
  const r = await store.hybridSearch('conversations', {
    embedding: bagOfWordsEmbedding(text, 256),
    text,
    topK: 40,
    filter: contact ? { contact_uid: contact } : undefined,
  });
  console.log(
    'dense',
    r.dense.length,
    'lexical',
    r.lexical.length,
    (performance.now() - t0).toFixed(1),
    'ms',
  );
  await db.close();
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
