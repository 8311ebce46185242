import { termFrequencies } from '@app/common';
import { fusionScores, type RerankCandidate } from '@app/rerank';

import { type ScoredCandidate } from '../../src/context/evidence/evidence-assembler';
import { type ConversationWindow } from '../../src/conversations/conversation-windows';
import { dot } from './embedding-cache';
import { bm25, type Unit } from './locomo-legs';

export const RRF_K = 60;

/** A window of a contact: its retrieval unit plus where and when it is. */
export interface Win extends Unit {
  id: string;
  session: string;
  occurredAt: string;
}

/** Each contact's windows with their (unit-length) vectors. */
export function windowsByContact(
  windows: readonly ConversationWindow[],
  vectors: readonly Float32Array[],
): Map<string, Win[]> {
  const out = new Map<string, Win[]>();
  windows.forEach((w, i) => {
    const list = out.get(w.contact_uid) ?? [];
    list.push({
      id: w.id,
      text: w.content,
      vector: vectors[i],
      tf: termFrequencies(w.content),
      session: w.conversation_uid,
      occurredAt: w.occurred_at,
    });
    out.set(w.contact_uid, list);
  });
  return out;
}

/**
 * One question's first stage in process, over its contact's windows: the dense list (cosine)
 * and a BM25 list with the store's constants, each over the whole history, so a pool of any
 * depth (and a window joined from deeper) carries the signals the store would report. At
 * depth 20 it reproduces the saved pools' bundles exactly (`pool_k20`).
 */
export class ProbePool {
  readonly cosine: Map<Win, number>;
  readonly dense: Win[];
  readonly lexical: Win[];
  private readonly lex: Map<Win, number>;

  constructor(
    readonly question: string,
    readonly contact: string,
    readonly ws: readonly Win[],
    q: Float32Array,
  ) {
    this.cosine = new Map(ws.map((w) => [w, dot(q, w.vector)]));
    const score = bm25(question, ws);
    this.lex = new Map(ws.map((w) => [w, score(w)]));
    this.dense = [...ws].sort((a, b) => this.cosine.get(b)! - this.cosine.get(a)!);
    this.lexical = ws
      .filter((w) => this.lex.get(w)! > 0)
      .sort((a, b) => this.lex.get(b)! - this.lex.get(a)!);
  }

  /** What lists `k` deep report of `w` (ranks and BM25 only when it is within them). */
  signals(w: Win, k: number): RerankCandidate {
    const dr = this.dense.indexOf(w) + 1;
    const lr = this.lexical.indexOf(w) + 1;
    return {
      id: w.id,
      content: w.text,
      denseScore: this.cosine.get(w),
      denseRank: dr >= 1 && dr <= k ? dr : undefined,
      lexicalRank: lr >= 1 && lr <= k ? lr : undefined,
      lexicalScore: lr >= 1 && lr <= k ? this.lex.get(w) : undefined,
      occurredAt: w.occurredAt,
    };
  }

  /** The store's pool: both lists `k` deep, RRF-merged (ties by cosine), cut to `k`. */
  firstStage(k: number): Win[] {
    const rrf = (w: Win) => {
      const c = this.signals(w, k);
      return (
        (c.denseRank ? 1 / (RRF_K + c.denseRank) : 0) +
        (c.lexicalRank ? 1 / (RRF_K + c.lexicalRank) : 0)
      );
    };
    return [...new Set([...this.dense.slice(0, k), ...this.lexical.slice(0, k)])]
      .sort((a, b) => rrf(b) - rrf(a) || this.cosine.get(b)! - this.cosine.get(a)!)
      .slice(0, k);
  }

  /** RRF over the whole history's two lists: which of a set of windows to join first. */
  winRrf(w: Win): number {
    const lr = this.lexical.indexOf(w);
    return 1 / (RRF_K + this.dense.indexOf(w) + 1) + (lr >= 0 ? 1 / (RRF_K + lr + 1) : 0);
  }

  /** Fusion over `members` (lists `k` deep) plus `joined`, which carry full-depth signals. */
  fused(members: readonly Win[], k: number, joined: readonly Win[] = []) {
    const extra = joined.filter((w) => !members.includes(w));
    const all = [...members, ...extra];
    const candidates = [
      ...members.map((w) => this.signals(w, k)),
      ...extra.map((w) => this.signals(w, this.ws.length)),
    ];
    return { all, scores: fusionScores(this.question, candidates) };
  }

  /** Windows with scores, as the assembler reads a pool. */
  scored(all: readonly Win[], scores: readonly number[]): ScoredCandidate[] {
    return all.map((w, i) => ({
      candidate: {
        id: w.id,
        content: w.text,
        payload: {
          contact_uid: this.contact,
          conversation_uid: w.session,
          occurred_at: w.occurredAt,
        },
        vectorScore: this.cosine.get(w)!,
      } as ScoredCandidate['candidate'],
      id: w.id,
      content: w.text,
      score: scores[i],
      conversation_uid: w.session,
      occurred_at: w.occurredAt,
    }));
  }
}
