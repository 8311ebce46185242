import { type EvidenceBudget, fitToBudget } from './fit-budget';
import { type MergedPiece, mergeOverlaps, type WindowPiece } from './merge-overlaps';
import { type TrimOptions } from './trim-turns';
import { knownSenders, splitTurns } from './turns';

export { type EvidenceBudget } from './fit-budget';

/** A scored conversation window, as the reranker left it. */
export interface ScoredWindow {
  id: string;
  content: string;
  score: number;
  conversation_uid: string;
  occurred_at: string;
}

/**
 * Why a window of the pool is not an excerpt of its own (the explain mode shows it):
 * `merged` it joined an overlapping, higher window's excerpt (`into`); `rank` the excerpts
 * chosen filled every slot before it; `threshold` it scored below the fill margin of the
 * best once the base slots were taken; `budget` it was chosen but the token budget ran out
 * before it (set by the caller, which owns the budget).
 */
export type DropReason = 'merged' | 'rank' | 'threshold' | 'budget';

/** Tuning of {@link selectEvidence}; see {@link DEFAULT_EVIDENCE_OPTIONS}. */
export interface EvidenceOptions {
  /** Overlapping windows of one conversation become one excerpt. */
  merge: boolean;
  /**
   * Share of its score an excerpt gives up, while choosing, per excerpt of the same
   * conversation already chosen (MMR-style; 0 disables). Only the choice uses it: the
   * excerpt keeps its real score.
   */
  diversity: number;
  /**
   * Trim long excerpts to the turns around their best matches when the chosen excerpts do
   * not fit the budget whole (lowest-scored first); null keeps them whole.
   */
  trim: TrimOptions | null;
  /** Excerpts always offered to the budget when the pool has them. */
  baseK: number;
  /** At most this many excerpts; those past `baseK` must score ≥ `fillMargin` × the best. */
  maxK: number;
  fillMargin: number;
}

/**
 * Defaults, measured on bench:quality's long-memory set (replayed with `bench:memory-tune`
 * over its BENCH_POOLS dump; 16 contacts × 24 SGD sessions, 423 questions): merging is
 * the big gain; a 10% diversity step (a second excerpt of one conversation must beat a new
 * conversation's by more than that) costs nothing on single facts; filling past FINAL_K
 * with excerpts scoring ≥ 30% of the best buys most of what filling with anything would, at
 * three quarters of the tokens; trimming only when the budget binds (a window trimmed up
 * front lost a quarter of single-fact answers that sat two turns from the matching words).
 * `peerShare` 0.6 from LoCoMo pools (`bench/locomo-tune.ts`): chosen on three conversations
 * over 1/0.9/0.8/0.7/0.6/0.5, it raised the other two from 0.829 to 0.839 (docs/benchmarks.md).
 * `baseK`/`maxK` come from the request (`final_k`) or the config.
 */
export const DEFAULT_EVIDENCE_OPTIONS: Readonly<Omit<EvidenceOptions, 'baseK' | 'maxK'>> =
  Object.freeze({
    merge: true,
    diversity: 0.1,
    trim: Object.freeze({ above: 4, radius: 1, anchorShare: 0.5, peerShare: 0.6 }),
    fillMargin: 0.3,
  });

/** One chosen excerpt: the lead window's identity and score, the evidence's text and time. */
export interface EvidenceExcerpt<W extends ScoredWindow> {
  /** The best window of the excerpt (id, score, channel… of the bundle entry). */
  window: W;
  content: string;
  /** Latest time of the windows in it. */
  occurred_at: string;
  /** Ids of every window in the excerpt, lead first. */
  windowIds: string[];
  /** True when turns were left out around the matches. */
  trimmed: boolean;
}

export interface EvidenceSelection<W extends ScoredWindow> {
  /** Chosen excerpts, best score first. */
  excerpts: Array<EvidenceExcerpt<W>>;
  /** Every pool window that is not an excerpt's lead, with the reason. */
  dropped: Map<string, { reason: DropReason; into?: string }>;
  /** Chosen excerpts left out because the budget had no room for them (reason `budget`). */
  overBudget: number;
}

type Piece<W> = WindowPiece & { window: W };

/**
 * From a scored pool to the excerpts worth their tokens: merge overlapping windows of one
 * conversation, choose up to `maxK` with a diversity step across conversations, then, if
 * they do not fit `budget` whole, fit them by marginal value (see `fitToBudget`): best
 * first, whole, else trimmed to the turns around what the query matches, else left out
 * (`overBudget`). Pure; the caller redacts and enforces the budget.
 */
export function selectEvidence<W extends ScoredWindow>(
  query: string,
  windows: readonly W[],
  options: EvidenceOptions,
  budget?: EvidenceBudget,
): EvidenceSelection<W> {
  const dropped = new Map<string, { reason: DropReason; into?: string }>();
  const senders = knownSenders(windows.map((w) => w.content));
  const pieces: Array<Piece<W>> = windows
    .map((w) => ({
      window: w,
      id: w.id,
      conversation_uid: w.conversation_uid,
      turns: splitTurns(w.content, senders),
      score: Number.isFinite(w.score) ? w.score : -Infinity,
      occurred_at: w.occurred_at,
    }))
    .sort((a, b) => b.score - a.score);
  const merged: Array<MergedPiece<Piece<W>>> = options.merge
    ? mergeOverlaps(pieces, (w, into) => dropped.set(w.id, { reason: 'merged', into: into.id }))
    : pieces.map((p) => ({ lead: p, turns: p.turns, members: [p], occurred_at: p.occurred_at }));

  const chosen = choose(merged, options);
  // Past the base slots only excerpts within the fill margin were eligible (see `choose`).
  const floor =
    chosen.length >= options.baseK ? (merged[0]?.lead.score ?? 0) * options.fillMargin : -Infinity;
  for (const m of merged) {
    if (!chosen.includes(m)) {
      dropped.set(m.lead.id, { reason: m.lead.score >= floor ? 'rank' : 'threshold' });
    }
  }
  const excerpts = chosen
    .map((m) => ({
      window: m.lead.window,
      content: m.turns.join('\n'),
      occurred_at: m.occurred_at,
      windowIds: m.members.map((w) => w.id),
      trimmed: false,
      score: m.lead.window.score,
    }))
    .sort((a, b) => b.window.score - a.window.score);
  if (options.trim) {
    const left = new Set(fitToBudget(query, excerpts, options.trim, senders, budget));
    left.forEach((i) => dropped.set(excerpts[i].window.id, { reason: 'budget' }));
    return { excerpts: excerpts.filter((_, i) => !left.has(i)), dropped, overBudget: left.size };
  }
  return { excerpts, dropped, overBudget: 0 };
}

/**
 * Greedy MMR over conversations: the next excerpt is the best score after a `diversity`
 * step per excerpt of its conversation already chosen. Past `baseK`, only excerpts within
 * `fillMargin` of the best are eligible: a long tail of weak windows is not evidence.
 */
function choose<P extends MergedPiece<WindowPiece>>(pieces: readonly P[], o: EvidenceOptions): P[] {
  const chosen: P[] = [];
  const perConversation = new Map<string, number>();
  const rest = [...pieces];
  const best = pieces[0]?.lead.score ?? 0;
  const step = 1 - Math.min(1, Math.max(0, o.diversity));
  while (chosen.length < o.maxK && rest.length > 0) {
    let pick = -1;
    let pickValue = -Infinity;
    rest.forEach((p, i) => {
      if (chosen.length >= o.baseK && !(p.lead.score >= best * o.fillMargin)) {
        return;
      }
      const seen = perConversation.get(p.lead.conversation_uid) ?? 0;
      const value = p.lead.score * step ** seen;
      if (value > pickValue) {
        pick = i;
        pickValue = value;
      }
    });
    if (pick < 0) {
      break;
    }
    const [p] = rest.splice(pick, 1);
    chosen.push(p);
    const conversation = p.lead.conversation_uid;
    perConversation.set(conversation, (perConversation.get(conversation) ?? 0) + 1);
  }
  return chosen;
}
