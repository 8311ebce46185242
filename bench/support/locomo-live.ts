import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { EmbeddingService } from '@app/embedding';
import { Redactor } from '@app/redaction';
import { RERANKER, type Reranker } from '@app/rerank';
import { type INestApplicationContext } from '@nestjs/common';

import { EvidenceAssembler, scoredPool } from '../../src/context/evidence/evidence-assembler';
import { type EvidenceOptions } from '../../src/context/evidence/select-evidence';
import { IngestService } from '../../src/ingest/ingest.service';
import { HybridSearchService } from '../../src/retrieval/hybrid-search.service';
import { BENCH_CACHE_DIR } from './embedding-cache';
import { loadLocomo } from './locomo';
import { MemoryTally } from './memory-metrics';

/** One retrieval setting to measure: `pool_k`, evidence options, `final_k`, budget. */
export interface LiveVariant {
  o?: Partial<EvidenceOptions>;
  k?: number;
  tokens?: number;
  poolK?: number;
}

/**
 * LoCoMo through the live retrieval path (hybrid pool → rerank → evidence assembly, as
 * `/context` runs it) over several settings in one process, ingesting once. Each variant is
 * also tallied per half of the conversations (`@a`: the first three files, `@b`: the rest),
 * so a setting tuned on one half can be checked on the other.
 */
export async function locomoLive(
  app: INestApplicationContext,
  variants: Record<string, LiveVariant>,
  log: (m: string) => void,
) {
  const t0 = performance.now();
  const set = await ingestLocomo(app, log);
  log(`locomo-live: ingested in ${Math.round(performance.now() - t0)} ms`);
  const redactor = new Redactor({});
  const lineOf = (key: string) => {
    const m = set.turns.get(key)!;
    return redactor.redact(`${m.sender}: ${redactor.redact(m.text).text.trim()}`).text;
  };
  const contacts = [...new Set(set.questions.map((q) => q.contact_uid))].sort();
  const half = new Map(contacts.map((c, i) => [c, i < Math.ceil(contacts.length / 2) ? 'a' : 'b']));
  const hybrid = app.get(HybridSearchService);
  const reranker = app.get<Reranker>(RERANKER);
  const assembler = app.get(EvidenceAssembler);
  const tally = new MemoryTally();
  const ms: Record<string, number> = {};
  for (const [qi, q] of set.questions.entries()) {
    const evidence = q.evidence.map((id) => [lineOf(`${q.contact_uid}|${id}`)]);
    for (const [name, v] of Object.entries(variants)) {
      const t = performance.now();
      const { candidates } = await hybrid.pool(
        q.question,
        { contact_uid: q.contact_uid },
        assembler.poolSize(v.k, v.poolK),
      );
      const scores = await reranker.score(q.question, candidates);
      const pool = scoredPool(candidates, (_, i) => scores[i]);
      const out = assembler.assemble(
        q.question,
        pool,
        assembler.limits(v.k),
        v.tokens ?? 1500,
        v.o ?? {},
      );
      ms[name] = (ms[name] ?? 0) + performance.now() - t;
      const p = { question: { kind: q.category }, evidence, pool };
      const bundle = {
        contents: out.excerpts.map((e) => e.content),
        ids: out.excerpts.map((e) => e.id),
        tokens: out.token_count,
      };
      tally.add(name, p, bundle);
      tally.add(`${name}@${half.get(q.contact_uid)}`, p, bundle);
      // The pool's ceiling: every window whole, no budget.
      const all = { contents: candidates.map((c) => c.content), ids: [], tokens: 0 };
      tally.add(`${name}:pool`, p, all);
    }
    if ((qi + 1) % 200 === 0) {
      log(`locomo-live: ${qi + 1}/${set.questions.length}`);
    }
  }
  const n = set.questions.length;
  return {
    mean_ms: Object.fromEntries(
      Object.entries(ms).map(([k, v]) => [k, Math.round((v / n) * 10) / 10]),
    ),
    variants: tally.report(),
  };
}

/**
 * Serves the ingest's window embeddings from `bench/.cache/<name>.json` (text → vector, so a
 * changed window is simply embedded again) and records new ones; the returned function
 * restores the service and saves what was embedded. Ingest was most of a tuning run.
 */
/** The LoCoMo set, ingested into `app`'s store (window vectors from the on-disk cache). */
export async function ingestLocomo(app: INestApplicationContext, log: (m: string) => void) {
  const set = loadLocomo();
  const release = cacheWindowVectors(app.get(EmbeddingService), 'locomo-windows', log);
  await app.get(IngestService).ingestConversations(set.messages);
  release();
  return set;
}

export function cacheWindowVectors(
  embedding: EmbeddingService,
  name: string,
  log: (m: string) => void,
) {
  const file = join(BENCH_CACHE_DIR, `${name}.json`);
  const cache = new Map<string, number[]>(
    existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Array<[string, number[]]>) : [],
  );
  const original = embedding.embedDocuments.bind(embedding);
  let fresh = 0;
  embedding.embedDocuments = async (texts, signal) => {
    const missing = texts.filter((t) => !cache.has(t));
    if (missing.length > 0) {
      const vectors = await original(missing, signal);
      missing.forEach((t, i) => cache.set(t, vectors[i]));
      fresh += missing.length;
    }
    return texts.map((t) => cache.get(t)!);
  };
  return () => {
    embedding.embedDocuments = original;
    log(`${name}: ${cache.size - fresh} vectors from cache, ${fresh} embedded`);
    if (fresh > 0) {
      mkdirSync(BENCH_CACHE_DIR, { recursive: true });
      writeFileSync(file, JSON.stringify([...cache]));
    }
  };
}
