import { InvalidInputError } from '@app/common';

import { type BudgetResult, enforceBudget } from '../budget/enforce-budget';
import { truncateToTokens } from '../budget/truncate';
import { memoizeCounter, type TokenCounterLike } from '../tokenizer/token-counter';
import {
  contactLines,
  DEFAULT_SYSTEM_PROMPT,
  type PromptBlock,
  type PromptContact,
  type PromptExcerpt,
  renderContact,
  renderHistory,
  renderTranscript,
} from './blocks';

/** Input of {@link buildPrompt} (the spec's `transcript_to_llm`). */
export interface BuildPromptInput<T extends PromptExcerpt> {
  /** Replaces {@link DEFAULT_SYSTEM_PROMPT}. */
  systemPrompt?: string;
  /** The merged live contact; `null`/`undefined` renders as "unavailable". */
  contact: PromptContact | null | undefined;
  /** Redacted historical excerpts, any order. */
  excerpts: readonly T[];
  /** The customer's latest (coalesced) words. */
  transcript: string;
  /** Hard ceiling on `token_count`. */
  maxTokens: number;
  counter: TokenCounterLike;
  /** Passed to {@link enforceBudget}. */
  minTruncatedTokens?: number;
}

/** A prompt ready for a chat API: `system` and `user` messages plus how they were built. */
export interface BuiltPrompt<T> {
  system: string;
  /** LIVE CONTACT, HISTORICAL CONTEXT and TRANSCRIPT TURN, joined by a blank line. */
  user: string;
  /** SYSTEM, LIVE CONTACT, HISTORICAL CONTEXT, TRANSCRIPT TURN, in that order. */
  blocks: PromptBlock[];
  /**
   * Exact: `count(system) + count(user)`, always ≤ `maxTokens`. Block counts do not add up
   * to it exactly (BPE merges across the blank-line joins). A chat API's per-message framing
   * (a few tokens per message) is not included.
   */
  token_count: number;
  /** The excerpts that made it in, in prompt order (cut ones carry `truncated: true`). */
  excerpts: T[];
  /** Excerpts left out entirely. */
  dropped_excerpts: number;
}

interface Draft<T> {
  transcript: string;
  transcriptCut: boolean;
  contactKeep: number;
  history: BudgetResult<T>;
}

const JOIN = '\n\n';

/**
 * Assembles the four-block prompt under `maxTokens`. The budget is spent by priority:
 * 1. SYSTEM, whole (if it plus the block headers cannot fit, the request is invalid);
 * 2. TRANSCRIPT TURN, whole, else its most recent words (the customer's latest words are the
 *    question; dropping them would answer the wrong thing);
 * 3. LIVE CONTACT, whole, else its leading fields (short, and authoritative);
 * 4. HISTORICAL CONTEXT gets the rest via {@link enforceBudget} (lowest-ranked dropped first,
 *    the boundary excerpt cut at a sentence).
 * `token_count` is measured on the final strings, never estimated.
 */
export function buildPrompt<T extends PromptExcerpt>(input: BuildPromptInput<T>): BuiltPrompt<T> {
  const counter = memoizeCounter(input.counter);
  const maxTokens = Math.max(0, Math.floor(input.maxTokens));
  const system = (input.systemPrompt ?? DEFAULT_SYSTEM_PROMPT).trim();
  const systemTokens = counter.count(system);
  const lines = contactLines(input.contact);
  const transcript = input.transcript.trim();

  const partsOf = (d: Draft<T>): [string, string, string] => [
    renderContact(lines, d.contactKeep),
    renderHistory(d.history.excerpts),
    renderTranscript(d.transcript, d.transcriptCut),
  ];
  const exactTotal = (d: Draft<T>): number =>
    systemTokens + input.counter.count(partsOf(d).join(JOIN));
  // Block by block, so the search below re-measures only what changed (the rest is cached).
  // BPE may merge a token across a join, so this can be off by a token or two; hence the
  // exact check after allocation.
  const estimate = (d: Draft<T>): number =>
    systemTokens +
    2 * counter.count(JOIN) +
    partsOf(d).reduce((sum, text) => sum + counter.count(text), 0);

  // The floor: headers and placeholders only. Every shortfall degrades towards it.
  const floorDraft: Draft<T> = {
    transcript: '',
    transcriptCut: true,
    contactKeep: 0,
    history: { excerpts: [], token_count: 0, dropped: input.excerpts.length },
  };
  const floor = exactTotal(floorDraft);
  if (floor > maxTokens) {
    throw new InvalidInputError(
      'max_tokens_too_small',
      `max_tokens ${maxTokens} cannot hold the system prompt and block headers (${floor} tokens).`,
      { minimum: floor },
    );
  }

  const allocate = (limit: number): Draft<T> => {
    let draft: Draft<T> = { ...floorDraft, transcript, transcriptCut: false };
    if (estimate(draft) > limit) {
      const cutAt = (b: number): Draft<T> => {
        const cut = truncateToTokens(transcript, b, counter, 'end');
        return { ...floorDraft, transcript: cut.text, transcriptCut: cut.truncated };
      };
      draft = cutAt(shrinkToFit(limit - estimate(floorDraft), (b) => estimate(cutAt(b)), limit));
    }
    for (let keep = lines.length; keep > 0; keep--) {
      if (estimate({ ...draft, contactKeep: keep }) <= limit) {
        draft = { ...draft, contactKeep: keep };
        break;
      }
    }
    const base = draft;
    const historyAt = (b: number): Draft<T> => ({
      ...base,
      history: enforceBudget(input.excerpts, b, counter, {
        minTruncatedTokens: input.minTruncatedTokens,
      }),
    });
    return historyAt(shrinkToFit(limit - estimate(base), (b) => estimate(historyAt(b)), limit));
  };

  // Each retry lowers the limit by the measured overshoot; the floor is known to fit.
  let limit = maxTokens;
  let draft = allocate(limit);
  for (let total = exactTotal(draft); total > maxTokens; total = exactTotal(draft)) {
    limit -= total - maxTokens;
    draft = allocate(limit);
  }

  const [contactText, historyText, transcriptText] = partsOf(draft);
  const user = [contactText, historyText, transcriptText].join(JOIN);
  const block = (name: PromptBlock['name'], text: string, truncated: boolean): PromptBlock => ({
    name,
    text,
    tokens: counter.count(text),
    truncated,
  });
  return {
    system,
    user,
    blocks: [
      block('SYSTEM', system, false),
      block('LIVE CONTACT', contactText, draft.contactKeep < lines.length),
      block(
        'HISTORICAL CONTEXT',
        historyText,
        draft.history.dropped > 0 || draft.history.excerpts.some((e) => e.truncated === true),
      ),
      block('TRANSCRIPT TURN', transcriptText, draft.transcriptCut),
    ],
    token_count: systemTokens + input.counter.count(user),
    excerpts: draft.history.excerpts,
    dropped_excerpts: draft.history.dropped,
  };
}

/**
 * Largest body budget `b ≤ start` whose rendered prompt fits `limit`. Rendering adds framing
 * the body budget does not see (excerpt header lines), so each miss shrinks `b` by the
 * overshoot. Budget 0 renders the state the caller already fitted, so the loop always ends.
 */
function shrinkToFit(start: number, totalAt: (b: number) => number, limit: number): number {
  let b = Math.max(0, start);
  for (;;) {
    const over = totalAt(b) - limit;
    if (over <= 0 || b === 0) {
      return b;
    }
    b = Math.max(0, b - over);
  }
}
