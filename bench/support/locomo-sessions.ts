import { termFrequencies } from '@app/common';
import { createEmbeddingProvider } from '@app/embedding';
import { Redactor } from '@app/redaction';
import { termOverlap } from '@app/rerank';

import { type ScoredCandidate } from '../../src/context/evidence/evidence-assembler';
import { type EvidenceOptions } from '../../src/context/evidence/select-evidence';
import { chunkConversations } from '../../src/conversations/conversation-windows';
import { dot, embedCached, normalize } from './embedding-cache';
import { type LocomoSet, MONTHS } from './locomo';
import { dateRows } from './locomo-date-legs';
import { bm25, type Unit } from './locomo-legs';
import { ProbePool, RRF_K, type Win, windowsByContact } from './locomo-probe-pool';
import { type Bundle, type MemoryPool, MemoryTally } from './memory-metrics';

/** A bundle from a scored pool (`finalK` undefined: the defaults), as the service builds it. */
type Assemble = (
  question: string,
  pool: ScoredCandidate[],
  finalK?: number,
  chooser?: Chooser,
) => Bundle;

/** A chooser setting: the excerpt cap and evidence options over the defaults. */
interface Chooser {
  max?: number;
  o?: Partial<EvidenceOptions>;
}

/** Chooser rows tried on each pool size (`CHOOSERS` env: JSON of more). */
const CHOOSERS: Record<string, Chooser> = {
  div3: { o: { diversity: 0.3 } },
  div5: { o: { diversity: 0.5 } },
  max20_fill0: { max: 20, o: { fillMargin: 0 } },
  r0: { o: { trim: { above: 4, radius: 0, anchorShare: 0.5, peerShare: 0.6 } } },
  ...(JSON.parse(process.env.CHOOSERS ?? '{}') as Record<string, Chooser>),
};

/**
 * The brief's four directions on the LoCoMo pools, all in process (window and question
 * vectors from bench/.cache, BM25 over each contact's windows with the store's constants:
 * see `ProbePool`), so no ingest is needed:
 * - `pool_k{20,30,40,60}` (+ `_<chooser>`): lists of k, RRF-cut to k, fused, assembled;
 *   `pool_k20` is the control (it equals the saved pools' bundle);
 * - `sess_{dense,bm25,bm25+date,rrf}@S`: the top S sessions of a session leg, whole (which
 *   sessions hold the evidence), by the centroid of their windows' vectors, BM25 over their
 *   turns (with their date as words), and both fused;
 * - `plus_sess{S}x{W}`: the pool plus the W best windows of each of the top S sessions (RRF
 *   leg), joined with full-depth signals, fused and assembled;
 * - `sprior_{w}` / `sbm25prior_{w}`: fused scores × (1 + w · the session's RRF / BM25 score
 *   over the best); `bestturn_{w}`: × (1 − w + w · the best single turn's query coverage);
 * - dates in the question: see `dateRows` (`dated_*`: the dated questions alone).
 * Every row has its `:pool` ceiling (its windows whole, no budget) and halves (`@a`, `@b`).
 */
export async function probeSessions(
  set: LocomoSet,
  pools: MemoryPool[],
  log: (m: string) => void,
  assemble: Assemble,
) {
  const redactor = new Redactor({});
  const messages = set.messages.map((m) => ({ ...m, text: redactor.redact(m.text).text }));
  const windows = chunkConversations(messages);
  const provider = createEmbeddingProvider({ provider: 'local', workers: 2 });
  const info = await provider.init();
  let vectors: Float32Array[][];
  try {
    const embed = async (name: string, texts: string[]) =>
      (await embedCached(provider, info.model, name, texts, log)).map(normalize);
    vectors = [
      await embed(
        'locomo-probe-windows',
        windows.map((w) => w.content),
      ),
      await embed(
        'locomo-probe-questions',
        pools.map((p) => p.question.question),
      ),
    ];
  } finally {
    await provider.close();
  }
  const [windowVectors, questionVectors] = vectors;
  const byContact = windowsByContact(windows, windowVectors);
  const sessions = sessionUnits(messages, byContact);
  const contacts = [...byContact.keys()].sort();
  const tally = new MemoryTally();
  pools.forEach((p, qi) => {
    const contact = p.pool[0]?.candidate.payload.contact_uid ?? '';
    const half = contacts.indexOf(contact) < Math.ceil(contacts.length / 2) ? 'a' : 'b';
    const question = p.question.question;
    const both = (name: string, b: Bundle) => {
      tally.add(name, p, b);
      tally.add(`${name}@${half}`, p, b);
    };
    const whole = (texts: string[]): Bundle => ({ contents: texts, ids: [], tokens: 0 });
    const add = (name: string, pool: ScoredCandidate[], finalK?: number, chooser?: Chooser) => {
      both(name, assemble(question, pool, finalK, chooser));
      both(`${name}:pool`, whole(pool.map((c) => c.content)));
    };
    const pp = new ProbePool(question, contact, byContact.get(contact) ?? [], questionVectors[qi]);

    // 1. Pool size, and the chooser on each.
    const base = pp.firstStage(20);
    const { scores } = pp.fused(base, 20);
    add('pool_k20', pp.scored(base, scores));
    add('pool_k20_k5', pp.scored(base, scores), 5);
    for (const k of [20, 30, 40, 60]) {
      const members = pp.firstStage(k);
      const pool = pp.scored(members, pp.fused(members, k).scores);
      if (k !== 20) {
        add(`pool_k${k}`, pool);
      }
      for (const [name, c] of Object.entries(CHOOSERS)) {
        add(`pool_k${k}_${name}`, pool, undefined, c);
      }
    }

    // 2. Session legs: which sessions hold the evidence, then their best windows joined.
    const ss = sessions.get(contact) ?? [];
    const q = questionVectors[qi];
    const sDense = rank(ss, (s) => dot(q, s.vector));
    const sBm25 = bm25(question, ss);
    const sLex = rank(ss, sBm25);
    const sLexDate = rank(
      ss,
      bm25(
        question,
        ss.map((s) => s.dated),
      ),
    );
    const sBoth = rrfRank([sDense, sLex]);
    for (const S of [1, 3, 5]) {
      const top = (list: Session[]) => whole(list.slice(0, S).map((s) => s.text));
      both(`sess_dense@${S}`, top(sDense));
      both(`sess_bm25@${S}`, top(sLex));
      both(`sess_bm25+date@${S}`, top(sLexDate));
      both(`sess_rrf@${S}`, top(sBoth));
    }
    for (const [S, W] of [
      [3, 1],
      [5, 1],
      [3, 2],
    ]) {
      const joined = sBoth.slice(0, S).flatMap((s) =>
        pp.ws
          .filter((w) => w.session === s.id && !base.includes(w))
          .sort((a, b) => pp.winRrf(b) - pp.winRrf(a))
          .slice(0, W),
      );
      const f = pp.fused(base, 20, joined);
      add(`plus_sess${S}x${W}`, pp.scored(f.all, f.scores));
    }

    // Session scores as priors, and the best single turn's query coverage (a window whose
    // one turn says it all over one that spreads the words over several).
    const sRrf = new Map(sBoth.map((s, i) => [s.id, 1 / (RRF_K + i + 1)]));
    const sLexScore = new Map(ss.map((s) => [s.id, sBm25(s)]));
    const turnLists = base.map((w) => w.text.split('\n'));
    const cover = termOverlap(question, turnLists.flat());
    const offsets = turnLists.map((_, i) =>
      turnLists.slice(0, i).reduce((n, t) => n + t.length, 0),
    );
    const bestTurn = turnLists.map((t, i) =>
      Math.max(0, ...cover.slice(offsets[i], offsets[i] + t.length)),
    );
    const prior = (name: string, factor: (w: Win, i: number) => number) =>
      add(
        name,
        pp.scored(
          base,
          scores.map((s, i) => s * factor(base[i], i)),
        ),
      );
    const share = (m: ReadonlyMap<string, number>, w: Win) =>
      (m.get(w.session) ?? 0) / Math.max(1e-9, ...m.values());
    for (const w of [0.1, 0.3]) {
      prior(`sprior_${w}`, (win) => 1 + w * share(sRrf, win));
    }
    for (const w of [0.2, 0.5]) {
      prior(`sbm25prior_${w}`, (win) => 1 + w * share(sLexScore, win));
      prior(`bestturn_${w}`, (_, i) => 1 - w + w * bestTurn[i]);
    }

    // 3. Dates in the question.
    dateRows(
      pp,
      base,
      scores,
      (name, pool) => add(name, pool),
      (name, pool) =>
        tally.add(
          `dated_${name}`,
          p,
          typeof pool[0] === 'string' || pool.length === 0
            ? whole(pool as string[])
            : assemble(question, pool as ScoredCandidate[]),
        ),
    );
    if ((qi + 1) % 200 === 0) {
      log(`locomo-sessions: ${qi + 1}/${pools.length}`);
    }
  });
  return tally.report();
}

interface Session extends Unit {
  id: string;
  /** The same unit with its date as words ("8 may 2023"), a field a question's date can match. */
  dated: Unit;
}

/** Each session as one unit: every turn's line, the centroid of its windows' vectors. */
function sessionUnits(
  messages: ReadonlyArray<{
    contact_uid: string;
    conversation_uid: string;
    sender: string;
    text: string;
    occurred_at: string;
  }>,
  byContact: ReadonlyMap<string, Win[]>,
): Map<string, Session[]> {
  const lines = new Map<string, { contact: string; lines: string[]; first: string }>();
  for (const m of messages) {
    const s = lines.get(m.conversation_uid) ?? {
      contact: m.contact_uid,
      lines: [],
      first: m.occurred_at,
    };
    s.lines.push(`${m.sender}: ${m.text.trim()}`);
    lines.set(m.conversation_uid, s);
  }
  const out = new Map<string, Session[]>();
  lines.forEach((s, id) => {
    const members = (byContact.get(s.contact) ?? []).filter((w) => w.session === id);
    const centroid = normalize(
      members[0].vector.map((_, i) => members.reduce((n, w) => n + w.vector[i], 0)),
    );
    const text = s.lines.join('\n');
    const d = new Date(s.first);
    const date = `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
    const list = out.get(s.contact) ?? [];
    list.push({
      id,
      text,
      vector: centroid,
      tf: termFrequencies(text),
      dated: { text, vector: centroid, tf: termFrequencies(`${date}\n${text}`) },
    });
    out.set(s.contact, list);
  });
  return out;
}

const rank = <U>(units: readonly U[], score: (u: U) => number): U[] =>
  units
    .map((u) => ({ u, s: score(u) }))
    .sort((a, b) => b.s - a.s)
    .map((x) => x.u);

function rrfRank(lists: ReadonlyArray<readonly Session[]>): Session[] {
  const score = new Map<Session, number>();
  lists.forEach((l) =>
    l.forEach((s, i) => score.set(s, (score.get(s) ?? 0) + 1 / (RRF_K + i + 1))),
  );
  return [...score.keys()].sort((a, b) => score.get(b)! - score.get(a)!);
}
