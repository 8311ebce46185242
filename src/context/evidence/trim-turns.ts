/** Tuning of {@link trimTurns}. */
export interface TrimOptions {
  /** Excerpts with more turns than this are trimmed; shorter ones are kept whole. */
  above: number;
  /** Turns kept on each side of a matching turn (1: the turn before and after it). */
  radius: number;
  /**
   * A turn is a match when it covers at least this share of what the best turn covers, so
   * an excerpt merged from two windows keeps both answers, not only the stronger one.
   */
  anchorShare: number;
  /**
   * When the budget binds: excerpts scoring at least this share of the best get their cores
   * before the best grows past its own (see `fitToBudget`); 1 (or unset): the best alone.
   */
  peerShare?: number;
}

/** Marks turns left out between two kept runs, so the model never reads them as adjacent. */
export const GAP = '…';

/**
 * The turns of one excerpt around its best matches: each turn scoring at least `anchorShare`
 * of the best (and above 0) keeps itself and `radius` turns on each side, in order, with
 * {@link GAP} where turns were left out. Kept whole when it is short, when no turn matches
 * (a paraphrase the dense leg found: nothing says which turn answers), or when trimming
 * would save less than one turn. Whole turns only, so every kept turn keeps its speaker.
 */
export function trimTurns(
  turns: readonly string[],
  scores: readonly number[],
  options: TrimOptions,
): { turns: string[]; trimmed: boolean } {
  const keep = coreMask(turns.length, scores, options);
  if (!keep || keep.filter(Boolean).length >= turns.length - 1) {
    return { turns: [...turns], trimmed: false };
  }
  return { turns: renderKept(turns, keep), trimmed: true };
}

/**
 * Which turns {@link trimTurns} keeps: each anchor (a turn scoring at least `anchorShare` of
 * the best, and above 0) and `radius` turns on each side. Undefined when the excerpt is kept
 * whole (short, or nothing matches).
 */
export function coreMask(
  length: number,
  scores: readonly number[],
  options: TrimOptions,
): boolean[] | undefined {
  const best = Math.max(0, ...scores);
  if (length <= options.above || best <= 0) {
    return undefined;
  }
  const keep = new Array<boolean>(length).fill(false);
  const radius = Math.max(0, Math.floor(options.radius));
  scores.forEach((s, i) => {
    if (s > 0 && s >= best * options.anchorShare) {
      // Near an edge, the span slides inward, so every anchor keeps 2·radius + 1 turns.
      const from = Math.max(0, Math.min(i - radius, length - 1 - 2 * radius));
      for (let j = from; j <= Math.min(length - 1, from + 2 * radius); j++) {
        keep[j] = true;
      }
    }
  });
  return keep;
}

/** The kept turns in order, with {@link GAP} where turns were left out between them. */
export function renderKept(turns: readonly string[], keep: readonly boolean[]): string[] {
  const out: string[] = [];
  keep.forEach((k, i) => {
    if (k) {
      if (out.length > 0 && !keep[i - 1]) {
        out.push(GAP);
      }
      out.push(turns[i]);
    }
  });
  return out;
}
