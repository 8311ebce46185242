/**
 * Retrieval quality, both stores, one run: dense / lexical (BM25) / hybrid pool (RRF) /
 * reranked (RERANK_PROVIDER, default fusion) — hit@5, recall@5, MRR@10, nDCG@10 — on
 *  - SQuAD-500 (`../shared/data/squad`): 2,067 paragraphs cut as KB topics, unfiltered;
 *  - SGD per contact: BENCH_CONVERSATIONS dialogues (default 240), 8 per contact, slot-fact
 *    questions (BENCH_QUESTIONS, default 300) searched under the contact filter; a window
 *    is relevant when it holds the turn stating the value (as `bench:context` judges); the
 *    bundle rows say whether `/context`'s excerpts (main's top-5 whole windows, or the
 *    evidence assembly at final_k 5 and by default) hold that turn at the default budget;
 *  - memory (long histories): see `support/memory-eval.ts`; evidence recall, every-evidence
 *    rate and tokens per bundle, main against the new assembly and BM25 / dense / RRF;
 *  - locomo (real long histories, `../shared/data/locomo-dev`): see `support/locomo-eval.ts`;
 *    evidence recall and every-evidence per category through `/context`'s service, at the
 *    defaults, final_k 5 and 10, and budgets 500–3,000 tokens, beside BM25 / dense / RRF.
 * Stores: pgvector on PGlite (and on DATABASE_URL when set) and Qdrant on QDRANT_URL, or on
 * the loopback Qdrant test server when unset. Prints JSON.
 *
 *   npm run bench:quality      # BENCH_STORES=pgvector,qdrant  BENCH_SETS=squad,sgd,memory,locomo
 *   BENCH_SETS=locomo BENCH_STORES=pgvector npm run bench:quality   # LoCoMo only, one store
 *   BENCH_SCOPE=location       # SGD searched under the dialogue's location too (a bound key)
 */
import { createEmbeddingProvider, EmbeddingService } from '@app/embedding';
import { Redactor } from '@app/redaction';
import { RERANKER, type Reranker } from '@app/rerank';
import { VECTOR_STORE, type VectorStore } from '@app/vector';
import { type INestApplicationContext } from '@nestjs/common';

import { EvidenceAssembler, scoredPool } from '../src/context/evidence/evidence-assembler';
import { loadBeir } from '../src/eval/beir';
import { distinct, meanMetrics, type QueryMetrics, queryMetrics } from '../src/eval/metrics';
import { type Method, METHODS, rankAll, runEval } from '../src/eval/run-eval';
import { IngestService } from '../src/ingest/ingest.service';
import { startFakeQdrant } from '../test/fakes/qdrant-server';
import { benchContext } from './support/app-context';
import { embedCached } from './support/embedding-cache';
import { locomoEval } from './support/locomo-eval';
import { memoryEval } from './support/memory-eval';
import { poolWriter } from './support/pool-dump';
import { loadSgdConversations, loadSgdSlotFacts, sgdToMessages, SHARED_DATA } from './support/sgd';
import { buildSlotQuestions } from './support/sgd-questions';
import { chunkSquadCorpus, loadSquadCorpus } from './support/squad';
import { printJson } from './support/stats';

const log = (message: string) => process.stderr.write(`${message}\n`);
const K = 5;
const POOL_K = 20;
const GROUP = 8;

/** SQuAD vectors once per run (and cached across runs in bench/.cache). */
async function squadVectors() {
  const set = loadBeir(`${SHARED_DATA}/squad`, {
    queries: 'queries_sample500.jsonl',
    qrels: 'qrels_sample500.tsv',
  });
  const provider = createEmbeddingProvider({ provider: 'local', workers: 2 });
  const info = await provider.init();
  try {
    const chunks = chunkSquadCorpus(loadSquadCorpus()).map((c) => c.content);
    const chunkVectors = await embedCached(provider, info.model, 'squad-chunks', chunks, log);
    const queryVectors = await embedCached(
      provider,
      info.model,
      'squad-questions500',
      set.queries.map((q) => q.text),
      log,
    );
    const byText = new Map<string, number[]>();
    chunks.forEach((c, i) => byText.set(c, Array.from(chunkVectors[i])));
    set.queries.forEach((q, i) => byText.set(q.text, Array.from(queryVectors[i])));
    return { set, byText };
  } finally {
    await provider.close();
  }
}

async function sgd(app: INestApplicationContext, label: string) {
  const dump = poolWriter('sgd', label);
  const conversations = loadSgdConversations(Number(process.env.BENCH_CONVERSATIONS ?? 240));
  const contactOf = new Map(
    conversations.map((c, i) => [
      c.conversation_id,
      `contact-g${String(Math.floor(i / GROUP)).padStart(4, '0')}`,
    ]),
  );
  // BENCH_SCOPE=location: searched as a key bound to the dialogue's location (sgdToMessages
  // puts dialogue i in loc-(i % 4)), so BM25 uses the scope's statistics.
  const scoped = process.env.BENCH_SCOPE === 'location';
  const locationOf = new Map(conversations.map((c, i) => [c.conversation_id, `loc-${i % 4}`]));
  await app.get(IngestService).ingestConversations(sgdToMessages(conversations, GROUP));
  const turnText = new Map(
    conversations.flatMap((c) =>
      c.turns.map((t) => [`${c.conversation_id}#${t.turn_idx}`, `${t.role}: ${t.text.trim()}`]),
    ),
  );
  const redactor = new Redactor({});
  const questions = buildSlotQuestions(
    loadSgdSlotFacts(),
    new Set(contactOf.keys()),
    Number(process.env.BENCH_QUESTIONS ?? 300),
    (value) => redactor.redact(value).text !== value,
  );
  const embedding = app.get(EmbeddingService);
  const deps = { store: app.get<VectorStore>(VECTOR_STORE), reranker: app.get<Reranker>(RERANKER) };
  const perMethod = Object.fromEntries(METHODS.map((m) => [m, [] as QueryMetrics[]]));
  const assembler = app.get(EvidenceAssembler);
  const bundles = { main: 0, new_k5: 0, new_default: 0, tokens_main: 0, tokens_new_default: 0 };
  for (const q of questions) {
    const target = redactor.redact(turnText.get(`${q.conversation_id}#${q.turn_idx}`)!).text;
    const ranked = await rankAll(deps, 'conversations', {
      text: q.question,
      embedding: await embedding.embedQuery(q.question),
      poolK: POOL_K,
      filter: {
        contact_uid: contactOf.get(q.conversation_id)!,
        ...(scoped ? { location_uids: [locationOf.get(q.conversation_id)!] } : {}),
      },
    });
    // Every window holding the stated turn counts as the answer (overlapping windows).
    const key = (content: string, conversation: string, id: string) =>
      conversation === `sgd-${q.conversation_id}` && content.includes(target) ? 'gold' : id;
    dump(q.question, ranked, new Map([['gold', 1]]), (h) =>
      key(h.content, h.payload.conversation_uid, h.id),
    );
    for (const method of METHODS) {
      const docs = distinct(
        ranked[method].map((h) => key(h.content, h.payload.conversation_uid, h.id)),
      );
      perMethod[method].push(queryMetrics(docs, new Map([['gold', 1]]), K));
    }
    const pool = ranked.pool.map(({ hit, ...c }) => ({ ...c, payload: hit.payload }));
    const scores = await deps.reranker.score(q.question, pool);
    const scored = scoredPool(pool, (_, i) => scores[i]);
    const bundle = (finalK: number | undefined, main: boolean) =>
      assembler.assemble(
        q.question,
        scored,
        assembler.limits(finalK),
        1500,
        main ? { merge: false, diversity: 0, trim: null } : {},
      );
    const holds = (b: ReturnType<typeof bundle>) =>
      b.excerpts.some((e) => e.content.includes(target)) ? 1 : 0;
    const [main, k5, byDefault] = [bundle(K, true), bundle(K, false), bundle(undefined, false)];
    bundles.main += holds(main);
    bundles.new_k5 += holds(k5);
    bundles.new_default += holds(byDefault);
    bundles.tokens_main += main.token_count;
    bundles.tokens_new_default += byDefault.token_count;
  }
  const share = (x: number) => Math.round((x / Math.max(1, questions.length)) * 1000) / 1000;
  return {
    conversations: conversations.length,
    questions: questions.length,
    methods: Object.fromEntries(METHODS.map((m: Method) => [m, meanMetrics(perMethod[m], K)])),
    bundle_holds_answer: {
      main: share(bundles.main),
      new_k5: share(bundles.new_k5),
      new_default: share(bundles.new_default),
      tokens_main: Math.round(bundles.tokens_main / Math.max(1, questions.length)),
      tokens_new_default: Math.round(bundles.tokens_new_default / Math.max(1, questions.length)),
    },
  };
}

async function main() {
  const stores = (process.env.BENCH_STORES ?? 'pgvector,qdrant').split(',');
  const sets = (process.env.BENCH_SETS ?? 'squad,sgd,memory,locomo').split(',');
  const squad = sets.includes('squad') ? await squadVectors() : undefined;
  const fake =
    !process.env.QDRANT_URL && stores.includes('qdrant') ? await startFakeQdrant() : undefined;
  const targets: Array<[string, Record<string, string>]> = [];
  if (stores.includes('pgvector')) {
    targets.push(['pgvector_pglite', { DATABASE_URL: '' }]);
    if (process.env.DATABASE_URL) {
      targets.push(['pgvector_postgres', { DATABASE_URL: process.env.DATABASE_URL }]);
    }
  }
  if (stores.includes('qdrant')) {
    const url = process.env.QDRANT_URL ?? fake!.url;
    targets.push([
      fake ? 'qdrant_test_server' : 'qdrant',
      { VECTOR_PROVIDER: 'qdrant', QDRANT_URL: url },
    ]);
  }
  const results: Record<string, unknown> = {};
  try {
    for (const [label, env] of targets) {
      const out: Record<string, unknown> = {};
      if (squad) {
        // A fresh store per set: SQuAD's paragraphs must not share statistics with SGD.
        const app = await benchContext({ ...env, EMBEDDING_WORKERS: '2' });
        try {
          log(`${label}: SQuAD-500`);
          const dump = poolWriter('squad500', label);
          out.squad500 = await runEval(
            squad.set,
            {
              store: app.get(VECTOR_STORE),
              reranker: app.get(RERANKER),
              embedDocuments: (texts) => Promise.resolve(texts.map((t) => squad.byText.get(t)!)),
              embedQuery: (text) => Promise.resolve(squad.byText.get(text)!),
            },
            {
              k: K,
              poolK: POOL_K,
              batch: 512,
              onPool: (query, ranked, relevant) =>
                dump(query, ranked, relevant, (hit) => hit.payload.topic_id),
            },
          );
        } finally {
          await app.close();
        }
      }
      if (sets.includes('sgd')) {
        const app = await benchContext({ ...env, EMBEDDING_WORKERS: '2' });
        try {
          log(`${label}: SGD per contact`);
          out.sgd_per_contact = await sgd(app, label);
        } finally {
          await app.close();
        }
      }
      if (sets.includes('memory')) {
        const app = await benchContext({ ...env, EMBEDDING_WORKERS: '2' });
        try {
          log(`${label}: long memory`);
          out.memory = await memoryEval(app, log);
        } finally {
          await app.close();
        }
      }
      if (sets.includes('locomo')) {
        const app = await benchContext({ ...env, EMBEDDING_WORKERS: '2' });
        try {
          log(`${label}: LoCoMo`);
          out.locomo = await locomoEval(app, log);
        } finally {
          await app.close();
        }
      }
      results[label] = out;
    }
  } finally {
    await fake?.close();
  }
  printJson({ bench: 'quality', k: K, pool_k: POOL_K, stores: results });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
