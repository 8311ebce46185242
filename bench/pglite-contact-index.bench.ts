/**
 * What a per-contact HNSW build costs on embedded PGlite, against the exact sort it would
 * replace: the reason PGlite builds none (docs/operations.md, "Per-contact HNSW indexes").
 * A build holds PGlite's one session for its whole length, so every other statement waits.
 *
 *   node -r @swc-node/register bench/pglite-contact-index.bench.ts
 *   DIM=512 SIZES=3000,10000 (defaults); vectors from a seeded LCG (the seed is printed).
 */
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';

const SEED = 37;
let state = SEED;
const random = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;

async function main(): Promise<void> {
  const dim = Number(process.env.DIM ?? 512);
  const sizes = (process.env.SIZES ?? '3000,10000').split(',').map(Number);
  const point = () =>
    `[${Array.from({ length: dim }, () => (random() - 0.5).toFixed(4)).join(',')}]`;
  const db = await PGlite.create({ extensions: { vector } });
  await db.exec(`CREATE EXTENSION IF NOT EXISTS vector;
    CREATE TABLE c (id serial, contact_uid text, embedding vector(${dim}));
    CREATE INDEX ON c (contact_uid)`);
  console.log(`seed ${SEED}, ${dim}-d`);
  for (const n of sizes) {
    const contact = `ctc_${n}`;
    for (let i = 0; i < n; i += 500) {
      const rows = Array.from(
        { length: Math.min(500, n - i) },
        () => `('${contact}','${point()}')`,
      );
      await db.exec(`INSERT INTO c (contact_uid, embedding) VALUES ${rows.join(',')}`);
    }
    const q = point();
    const exact = async () => {
      const started = performance.now();
      await db.query(`SELECT id FROM c WHERE contact_uid = $1 ORDER BY embedding <=> $2 LIMIT 40`, [
        contact,
        q,
      ]);
      return performance.now() - started;
    };
    await exact();
    const times: number[] = [];
    for (let k = 0; k < 5; k++) {
      times.push(await exact());
    }
    times.sort((a, b) => a - b);
    const started = performance.now();
    await db.exec(`CREATE INDEX idx_${n} ON c USING hnsw (embedding vector_cosine_ops)
      WHERE contact_uid = '${contact}'`);
    const build = (performance.now() - started) / 1000;
    console.log(
      `${n} windows: exact top-40 median ${times[2].toFixed(1)} ms; ` +
        `HNSW build ${build.toFixed(1)} s, the one session held throughout`,
    );
  }
  await db.close();
}

void main();
