/** What merging reads of a scored window. */
export interface WindowPiece {
  id: string;
  conversation_uid: string;
  /** The window's turns, in order (see `splitTurns`). */
  turns: string[];
  score: number;
  occurred_at: string;
}

/** One excerpt after merging: the best window's place, the union of its overlapping turns. */
export interface MergedPiece<W extends WindowPiece> {
  /** The highest-scored window of the group; its id and score stand for the excerpt. */
  lead: W;
  turns: string[];
  /** Every window in the excerpt, lead first, then in the order they joined. */
  members: W[];
  /** The latest `occurred_at` of the members (a window's time is its last turn's). */
  occurred_at: string;
}

/**
 * How many turns end `a` and start `b` (the largest such count, at least 1), or 0. Windows of
 * one conversation overlap by a fixed number of turns at their boundary, so a suffix equal to
 * a prefix is the shared part.
 */
function sharedBoundary(a: readonly string[], b: readonly string[]): number {
  for (let k = Math.min(a.length, b.length); k >= 1; k--) {
    let same = true;
    for (let i = 0; i < k && same; i++) {
      same = a[a.length - k + i] === b[i];
    }
    if (same) {
      return k;
    }
  }
  return 0;
}

/** True when `inner` appears as consecutive turns inside `outer`. */
function contains(outer: readonly string[], inner: readonly string[]): boolean {
  for (let at = 0; at + inner.length <= outer.length; at++) {
    if (inner.every((t, i) => outer[at + i] === t)) {
      return true;
    }
  }
  return false;
}

/**
 * The union of two overlapping turn runs in conversation order, or undefined when they share
 * no boundary. `first` is the one that ends earlier (by `occurred_at`): a window that shares
 * only its last turn with the *start* of an earlier one is a coincidence (a repeated "Yes."),
 * not an overlap, and is left alone.
 */
function union(first: readonly string[], second: readonly string[]): string[] | undefined {
  if (contains(first, second)) {
    return [...first];
  }
  if (contains(second, first)) {
    return [...second];
  }
  const k = sharedBoundary(first, second);
  return k > 0 ? [...first, ...second.slice(k)] : undefined;
}

const time = (iso: string) => {
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : 0;
};

/**
 * Overlapping windows of one conversation become one excerpt: the union of their turns, in
 * order, at the best member's score. Windows are visited best first, so a lower window
 * always joins a higher one (never the reverse), and a join that makes two excerpts overlap
 * merges those too. `onMerged` hears every window that joined another excerpt (the reason
 * it takes no slot of its own; a window may be heard again when its excerpt joins a higher
 * one, the last call naming where it ended up). The input order must be best first; the output keeps it.
 */
export function mergeOverlaps<W extends WindowPiece>(
  windows: readonly W[],
  onMerged?: (window: W, into: W) => void,
): Array<MergedPiece<W>> {
  const out: Array<MergedPiece<W>> = [];
  const tryJoin = (into: MergedPiece<W>, piece: MergedPiece<W>): boolean => {
    if (into.lead.conversation_uid !== piece.lead.conversation_uid) {
      return false;
    }
    const [a, b] = [time(into.occurred_at), time(piece.occurred_at)];
    // Equal times (a batch stamped at once) say nothing about order: try both.
    const turns =
      (a <= b ? union(into.turns, piece.turns) : undefined) ??
      (b <= a ? union(piece.turns, into.turns) : undefined);
    if (!turns) {
      return false;
    }
    into.turns = turns;
    into.members.push(...piece.members);
    into.occurred_at = a >= b ? into.occurred_at : piece.occurred_at;
    piece.members.forEach((m) => onMerged?.(m, into.lead));
    return true;
  };
  for (const window of windows) {
    const piece: MergedPiece<W> = {
      lead: window,
      turns: [...window.turns],
      members: [window],
      occurred_at: window.occurred_at,
    };
    // Join the best excerpt it overlaps; then that excerpt may now reach a lower one.
    const host = out.find((p) => tryJoin(p, piece));
    if (!host) {
      out.push(piece);
      continue;
    }
    for (let i = out.indexOf(host) + 1; i < out.length;) {
      if (tryJoin(host, out[i])) {
        out.splice(i, 1);
      } else {
        i++;
      }
    }
  }
  return out;
}
