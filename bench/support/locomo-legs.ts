import { BM25_B, BM25_K1, termFrequencies, terms } from '@app/common';
import { createEmbeddingProvider } from '@app/embedding';
import { Redactor } from '@app/redaction';
import { fusionScores } from '@app/rerank';

import { chunkConversations } from '../../src/conversations/conversation-windows';
import { dot, embedCached, normalize } from './embedding-cache';
import { type LocomoSet } from './locomo';
import { type Bundle, type MemoryPool, MemoryTally } from './memory-metrics';

/** Rocchio weights of the feedback centroid tried (0: the query alone). */
const BETAS = [0.3, 0.6, 1];
/** Pool windows (best fused first) whose centroid is the feedback. */
const FEEDBACK = 3;
const POOL = 20;
const RRF_K = 60;
/** Expansion terms RM3 adds, and the weights of the expansion tried. */
const RM3_TERMS = 10;
const RM3_LAMBDAS = [0.3, 0.6];

export interface Unit {
  text: string;
  vector: Float32Array;
  tf: { length: number; tf: Map<string, number> };
}

/** Top `n` texts of `units` by `score`, best first. */
const top = (units: readonly Unit[], score: (u: Unit) => number, n: number) =>
  units
    .map((u) => ({ u, s: score(u) }))
    .sort((a, b) => b.s - a.s)
    .slice(0, n)
    .map((x) => x.u.text);

/** Okapi BM25 over `units` (IDF over those units), each query term weighted. */
export function bm25(query: string | ReadonlyMap<string, number>, units: readonly Unit[]) {
  const q = typeof query === 'string' ? new Map(terms(query).map((t) => [t, 1])) : query;
  const avg = units.reduce((n, u) => n + u.tf.length, 0) / Math.max(1, units.length);
  const idf = new Map(
    [...q.keys()].map((t) => {
      const df = units.filter((u) => u.tf.tf.has(t)).length;
      return [t, Math.log(1 + (units.length - df + 0.5) / (df + 0.5))];
    }),
  );
  return (u: Unit) => {
    const norm = BM25_K1 * (1 - BM25_B + (BM25_B * u.tf.length) / avg);
    let s = 0;
    q.forEach((w, t) => {
      const f = u.tf.tf.get(t) ?? 0;
      s += w * (idf.get(t) ?? 0) * ((f * (BM25_K1 + 1)) / (f + norm));
    });
    return s;
  };
}

/**
 * RM3: the query's terms (weight 1) plus the `RM3_TERMS` terms most frequent in the feedback
 * windows (by mean relative frequency), weighted `lambda` × their frequency over the top one.
 */
function rm3(query: string, feedback: readonly Unit[], lambda: number): Map<string, number> {
  const q = new Map(terms(query).map((t) => [t, 1]));
  const p = new Map<string, number>();
  for (const u of feedback) {
    u.tf.tf.forEach((f, t) => {
      if (!q.has(t)) {
        p.set(t, (p.get(t) ?? 0) + f / Math.max(1, u.tf.length) / feedback.length);
      }
    });
  }
  const expansion = [...p.entries()].sort((a, b) => b[1] - a[1]).slice(0, RM3_TERMS);
  const best = expansion[0]?.[1] ?? 1;
  expansion.forEach(([t, w]) => q.set(t, (lambda * w) / best));
  return q;
}

/** Reciprocal-rank fusion of ranked text lists, cut at `n`. */
function rrf(lists: ReadonlyArray<readonly string[]>, n: number): string[] {
  const score = new Map<string, number>();
  lists.forEach((list) =>
    list.forEach((t, i) => score.set(t, (score.get(t) ?? 0) + 1 / (RRF_K + i + 1))),
  );
  return [...score.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([t]) => t);
}

/**
 * First-stage legs the service does not have, measured by the evidence each list holds (no
 * budget: the ceiling any assembly of it could reach), beside the service's own pool from a
 * `BENCH_POOLS` dump: dense over whole windows, a dense Rocchio step (the query moved toward
 * the centroid of the pool's best windows) alone and fused with the pool's lexical list, and
 * single turns as units (dense, BM25); RM3 on a BM25 over the windows (and that BM25 alone, the
 * control), alone and fused with the dense list; and the Rocchio cosine as fusion's dense signal over the
 * pool, assembled as the defaults do (`rerank_rocchio_*`, a bundle, not a ceiling). Vectors by the local embedder, cached in bench/.cache.
 * Rows per half (`@a`: the first three contacts), as `locomo-tune` tallies them.
 */
export async function probeLegs(
  set: LocomoSet,
  pools: MemoryPool[],
  log: (m: string) => void,
  /** The default bundle of a pool (rows `rerank_rocchio_*`: the pool rescored, then assembled). */
  bundleOf: (p: MemoryPool) => Bundle,
) {
  const redactor = new Redactor({});
  // Stored history is redacted at ingest: the windows embedded are the ones the store holds.
  const messages = set.messages.map((m) => ({ ...m, text: redactor.redact(m.text).text }));
  const windows = chunkConversations(messages);
  const lines = messages.map((m) => `${m.sender}: ${m.text.trim()}`);
  const questions = pools.map((p) => p.question.question);
  const provider = createEmbeddingProvider({ provider: 'local', workers: 2 });
  const info = await provider.init();
  const embed = async (name: string, texts: string[]) =>
    (await embedCached(provider, info.model, name, texts, log)).map(normalize);
  let vectors: Float32Array[][];
  try {
    vectors = [
      await embed(
        'locomo-probe-windows',
        windows.map((w) => w.content),
      ),
      await embed('locomo-probe-turns', lines),
      await embed('locomo-probe-questions', questions),
    ];
  } finally {
    await provider.close();
  }
  const [windowVectors, turnVectors, questionVectors] = vectors;
  const byContact = (texts: string[], contacts: string[], vs: Float32Array[]) => {
    const out = new Map<string, Unit[]>();
    texts.forEach((text, i) => {
      const list = out.get(contacts[i]) ?? [];
      list.push({ text, vector: vs[i], tf: termFrequencies(text) });
      out.set(contacts[i], list);
    });
    return out;
  };
  const windowUnits = byContact(
    windows.map((w) => w.content),
    windows.map((w) => w.contact_uid),
    windowVectors,
  );
  const turnUnits = byContact(
    lines,
    messages.map((m) => m.contact_uid),
    turnVectors,
  );
  const contacts = [...windowUnits.keys()].sort();
  const tally = new MemoryTally();
  pools.forEach((p, qi) => {
    const contact = p.pool[0]?.candidate.payload.contact_uid ?? '';
    const half = contacts.indexOf(contact) < Math.ceil(contacts.length / 2) ? 'a' : 'b';
    const add = (name: string, contents: string[], assembled?: Bundle) => {
      const bundle = assembled ?? {
        contents: contents.map((c) => redactor.redact(c).text),
        ids: [],
        tokens: 0,
      };
      tally.add(name, p, bundle);
      tally.add(`${name}@${half}`, p, bundle);
    };
    const ws = windowUnits.get(contact) ?? [];
    const ts = turnUnits.get(contact) ?? [];
    const q = questionVectors[qi];
    const byText = new Map(p.pool.map((c) => [c.id, c.content]));
    const lexical = p.lexical.map((id) => byText.get(id)).filter((t) => t !== undefined);
    add(
      'service_pool',
      p.pool.map((c) => c.content),
    );
    add(
      'dense_windows',
      top(ws, (u) => dot(q, u.vector), POOL),
    );
    const best = [...p.pool].sort((a, b) => b.score - a.score).slice(0, FEEDBACK);
    const feedbackUnits = best
      .map((c) => ws.find((u) => u.text === c.content))
      .filter((u) => u !== undefined);
    const feedback = feedbackUnits.map((u) => u.vector);
    // Lexical PRF: the windows' own BM25 (the store's normaliser and constants) as the control.
    const denseList = top(ws, (u) => dot(q, u.vector), POOL);
    const bm25List = top(ws, bm25(p.question.question, ws), POOL);
    add('dense_windows', denseList);
    add('bm25_windows', bm25List);
    add('rrf_dense_bm25_windows', rrf([denseList, bm25List], POOL));
    for (const lambda of RM3_LAMBDAS) {
      const expanded = top(ws, bm25(rm3(p.question.question, feedbackUnits, lambda), ws), POOL);
      add(`rm3_${lambda}`, expanded);
      add(`rrf_dense_rm3_${lambda}`, rrf([denseList, expanded], POOL));
    }
    for (const beta of [0, ...BETAS]) {
      const moved = normalize(
        q.map((x, i) => x + (beta / Math.max(1, feedback.length)) * sum(feedback, i)),
      );
      // The Rocchio cosine as fusion's dense signal over the same pool; β 0 is the control
      // (every window gets a dense rank here, as BM25-only hits do not in the service).
      add(`rerank_rocchio_${beta}`, [], bundleOf(rescoredBy(p, moved, ws)));
      if (beta === 0) {
        continue;
      }
      const dense = top(ws, (u) => dot(moved, u.vector), POOL);
      add(`rocchio_${beta}`, dense);
      add(`rrf_rocchio_${beta}_lexical`, rrf([dense, lexical], POOL));
      add(`pool_plus_rocchio_${beta}_top10`, [
        ...p.pool.map((c) => c.content),
        ...dense.slice(0, 10),
      ]);
    }
    add(
      'dense_turns_20',
      top(ts, (u) => dot(q, u.vector), 20),
    );
    add('bm25_turns_20', top(ts, bm25(p.question.question, ts), 20));
    add(
      'dense_turns_40',
      top(ts, (u) => dot(q, u.vector), 40),
    );
  });
  return tally.report();
}

/** The pool scored by fusion with `query`'s cosine (and its rank) standing for the dense leg. */
function rescoredBy(p: MemoryPool, query: Float32Array, windows: readonly Unit[]): MemoryPool {
  const cosine = p.pool.map((c) => {
    const v = windows.find((u) => u.text === c.content)?.vector;
    return v ? dot(query, v) : (c.candidate.denseScore ?? 0);
  });
  const order = [...cosine.keys()].sort((a, b) => cosine[b] - cosine[a]);
  const candidates = p.pool.map((c, i) => ({
    ...c.candidate,
    denseScore: cosine[i],
    denseRank: order.indexOf(i) + 1,
  }));
  const scores = fusionScores(p.question.question, candidates);
  return { ...p, pool: p.pool.map((c, i) => ({ ...c, score: scores[i] })) };
}

const sum = (vs: readonly Float32Array[], i: number) => vs.reduce((n, v) => n + v[i], 0);
