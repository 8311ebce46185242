/**
 * Two copies of one store, A and B (say, before and after a schema change), searched through
 * the service's own store code with the same seeded queries, interleaved call by call (ABBA),
 * in one process: the difference a change makes to the statements that read what it changed,
 * on a shared box whose load hits both sides alike. Per side: the hybrid search (the /context
 * statement) for typical contacts drawn uniformly from the corpus's 5,000, for the heaviest,
 * and with no contact (the unfiltered /search); p50/p95/p99, throughput, and B over A.
 *
 *   BENCH_AB_A=postgres://…/before BENCH_AB_B=postgres://…/after BENCH_SCALE_DIMENSION=256 \
 *     npm run bench:store-ab
 *
 * Both stores must hold the same schema as far as this code reads it: to keep an older store
 * as it is, record the newer migrations in its `migrations` table first (opening migrates).
 */
import { Database } from '@app/database';
import { PgVectorStore } from '@app/vector';

import { prng } from './support/prng';
import { bagOfWordsEmbedding, ScaleCorpus } from './support/scale-corpus';
import { customerTurns } from './support/scale-probes';
import { printJson, summarize } from './support/stats';

const DIMENSION = Number(process.env.BENCH_SCALE_DIMENSION ?? 512);
const SEED = Number(process.env.BENCH_SCALE_SEED ?? 42);
const ROUNDS = { typical: 300, heaviest: 100, unfiltered: 50 } as const;
const TOP_K = 40;
/**
 * `BENCH_AB_ANALYZE_EVERY=n`: every n queries, ANALYZE the tables the statement reads on both
 * sides, as autoanalyze does after a load (it invalidates every session's cached plans).
 */
const ANALYZE_EVERY = Number(process.env.BENCH_AB_ANALYZE_EVERY ?? 0);
const ANALYZED = `ANALYZE podium_conversations, podium_conversations_terms, lexical_contact_stats,
  lexical_contact_term_stats, lexical_term_stats, lexical_doc_stats`;

type Kind = keyof typeof ROUNDS;

async function main() {
  const urls = { a: process.env.BENCH_AB_A, b: process.env.BENCH_AB_B };
  if (!urls.a || !urls.b) {
    throw new Error('bench:store-ab needs BENCH_AB_A and BENCH_AB_B (two Postgres URLs)');
  }
  process.stderr.write(`store-ab: seed ${SEED}, ${DIMENSION}-d\n`);
  const sides = await Promise.all(
    [urls.a, urls.b].map(async (url) => {
      const database = new Database({ dataDir: 'memory://', databaseUrl: url });
      const store = new PgVectorStore(database);
      await store.init(DIMENSION);
      return { database, store };
    }),
  );
  const corpus = new ScaleCorpus();
  const texts = customerTurns();
  const random = prng(SEED);
  const samples: Record<'a' | 'b', Record<Kind, number[]>> = {
    a: { typical: [], heaviest: [], unfiltered: [] },
    b: { typical: [], heaviest: [], unfiltered: [] },
  };
  const wall = { a: 0, b: 0 };
  // Whether both sides answered each query alike: ids and scores of both lists (a change
  // that must not move quality should leave every answer identical).
  let identical = 0;
  let compared = 0;
  try {
    for (const kind of Object.keys(ROUNDS) as Kind[]) {
      for (let i = 0; i < ROUNDS[kind] + 10; i++) {
        const text = texts[Math.floor(random() * texts.length)];
        const contact =
          kind === 'typical'
            ? corpus.contactUid(Math.floor(random() * corpus.contacts))
            : kind === 'heaviest'
              ? corpus.contactUid(0)
              : undefined;
        const query = {
          embedding: bagOfWordsEmbedding(text, DIMENSION),
          text,
          topK: TOP_K,
          ...(contact ? { filter: { contact_uid: contact } } : {}),
        };
        // ABBA: neither side always runs second (warmer caches, the other's leftovers).
        if (ANALYZE_EVERY > 0 && i > 0 && i % ANALYZE_EVERY === 0) {
          await Promise.all(sides.map((side) => side.database.exec(ANALYZED)));
        }
        const order = i % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
        const answers: Record<string, string> = {};
        for (const side of order) {
          const t0 = performance.now();
          const result = await sides[side === 'a' ? 0 : 1].store.hybridSearch(
            'conversations',
            query,
          );
          const ms = performance.now() - t0;
          answers[side] = fingerprint(result);
          // The first ten of each kind warm each side's connections and plans.
          if (i >= 10) {
            samples[side][kind].push(ms);
            wall[side] += ms;
          }
        }
        compared += 1;
        identical += answers.a === answers.b ? 1 : 0;
      }
    }
  } finally {
    await Promise.all(sides.map((s) => s.database.close()));
  }
  const report = Object.fromEntries(
    (Object.keys(ROUNDS) as Kind[]).map((kind) => {
      const a = summarize(samples.a[kind]);
      const b = summarize(samples.b[kind]);
      const ratio = (x: number, y: number) => Number((y / Math.max(x, 1e-9)).toFixed(3));
      return [kind, { a, b, b_over_a: { p50: ratio(a.p50, b.p50), p99: ratio(a.p99, b.p99) } }];
    }),
  );
  const calls = samples.a.typical.length + samples.a.heaviest.length + samples.a.unfiltered.length;
  printJson({
    bench: 'store-ab',
    seed: SEED,
    dimension: DIMENSION,
    analyze_every: ANALYZE_EVERY || null,
    statement: 'PgVectorStore.hybridSearch (the /context and /search statement)',
    identical_answers: `${identical}/${compared}`,
    ...report,
    throughput_per_s: {
      a: Math.round((calls / wall.a) * 1000),
      b: Math.round((calls / wall.b) * 1000),
    },
  });
}

/** A hybrid answer's ids and scores, in order, to compare two stores' answers exactly. */
function fingerprint(result: { dense: Hit[]; lexical: Hit[] }): string {
  const list = (hits: Hit[]) => hits.map((h) => `${h.id}:${h.score.toFixed(9)}`).join(',');
  return `${list(result.dense)}|${list(result.lexical)}`;
}

type Hit = { id: string; score: number };

void main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
