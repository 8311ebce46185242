/**
 * A TypeORM repository round trip (insert + findOneBy, ms) on embedded PGlite: the app's
 * DataSource over the worker thread (`PgliteOrmConnection`) against PGlite's own
 * node-postgres adapter on the main thread (pool of 1, the only size that answers right).
 *
 *   npm run bench:orm   # BENCH_REQUESTS (300) laps after 50 warm-up ones
 */
import { allEntities, Database, PodiumContactTombstoneEntity } from '@app/database';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { vector } from '@electric-sql/pglite-pgvector';
import { DataSource } from 'typeorm';

import { printJson } from './support/stats';

const LAPS = Number(process.env.BENCH_REQUESTS ?? 300);
const WARM_UP = 50;

async function roundTrips(label: string, dataSource: DataSource) {
  const repository = dataSource.getRepository(PodiumContactTombstoneEntity);
  const laps: number[] = [];
  for (let i = 0; i < LAPS + WARM_UP; i++) {
    const started = performance.now();
    await repository.insert({ contactUid: `${label}-${i}` });
    await repository.findOneBy({ contactUid: `${label}-${i}` });
    if (i >= WARM_UP) {laps.push(performance.now() - started);}
  }
  laps.sort((a, b) => a - b);
  const at = (p: number) =>
    +laps[Math.min(laps.length - 1, Math.floor(p * laps.length))].toFixed(2);
  return { laps: LAPS, p50_ms: at(0.5), p99_ms: at(0.99) };
}

async function main() {
  const database = new Database({ dataDir: 'memory://' });
  await database.open(4);
  const worker = await roundTrips('worker', database.dataSource);
  await database.close();

  const db = await PGlite.create({ extensions: { vector } });
  await db.exec(`CREATE TABLE podium_contact_tombstones (contact_uid text PRIMARY KEY,
    merged_into text, recorded_at timestamptz NOT NULL DEFAULT now(),
    event_at timestamptz NOT NULL DEFAULT now())`);
  const adapter = new DataSource({
    type: 'postgres',
    extra: createPgConfig(db),
    poolSize: 1,
    entities: allEntities(4),
    installExtensions: false,
  });
  await adapter.initialize();
  const mainThread = await roundTrips('adapter', adapter);
  await adapter.destroy();
  await db.close();

  printJson({ bench: 'orm-roundtrip', engine: 'pglite', worker, main_thread_adapter: mainThread });
}

void main();
