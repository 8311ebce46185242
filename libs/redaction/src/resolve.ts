import type { Detection } from './detectors/detector';
import { ENTITY_TYPES, type EntityType, PLACEHOLDERS } from './entity-types';

const TYPE_RANK = Object.fromEntries(ENTITY_TYPES.map((type, rank) => [type, rank])) as Record<
  EntityType,
  number
>;

/**
 * The order used to pick among overlapping candidates: longest span, then highest
 * confidence, then type rank; within a class of equal ones, leftmost first. Total, so the
 * outcome never depends on the order detectors ran in.
 */
function compareClass(a: Detection, b: Detection): number {
  return (
    b.end - b.start - (a.end - a.start) ||
    b.score - a.score ||
    TYPE_RANK[a.type] - TYPE_RANK[b.type]
  );
}

/**
 * `candidates` in pick order. Candidates are grouped into classes (length, score, type),
 * of which adversarial text has few, and each class sorted by start, which detectors mostly
 * emit already: near-linear where one comparison sort of tens of thousands of spans was not.
 */
function inPickOrder(candidates: readonly Detection[]): Detection[][] {
  const byLength = new Map<number, Detection[][]>();
  for (const c of candidates) {
    if (c.end <= c.start) {
      continue;
    }
    let classes = byLength.get(c.end - c.start);
    if (!classes) {
      classes = [];
      byLength.set(c.end - c.start, classes);
    }
    const same = classes.find((k) => k[0].score === c.score && k[0].type === c.type);
    if (same) {
      same.push(c);
    } else {
      classes.push([c]);
    }
  }
  const all = [...byLength.values()].flat();
  for (const k of all) {
    k.sort((a, b) => a.start - b.start);
  }
  return all.sort((a, b) => compareClass(a[0], b[0]));
}

/**
 * Keeps a non-overlapping subset of `candidates`, greedily in pick order (see
 * {@link compareClass}), and returns it sorted by position. Kept spans are held sorted and
 * disjoint, so each overlap check is a binary search, and a class taken left to right
 * mostly appends: adversarial input with many candidates stays O(n log n).
 */
export function resolveOverlaps(candidates: readonly Detection[]): Detection[] {
  const kept: Detection[] = []; // sorted by start, pairwise disjoint
  for (const k of inPickOrder(candidates)) {
    for (const c of k) {
      // First kept span that ends after c starts: the only one that can overlap c's start.
      let lo = 0;
      let hi = kept.length;
      if (hi > 0 && kept[hi - 1].end <= c.start) {
        lo = hi; // right of everything kept: the common case within a class
      }
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (kept[mid].end <= c.start) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      if (lo === kept.length) {
        kept.push(c);
      } else if (kept[lo].start >= c.end) {
        kept.splice(lo, 0, c);
      }
    }
  }
  return kept;
}

/** A masked span in the coordinates of the original input. */
export interface Span {
  type: EntityType;
  start: number;
  end: number;
}

/**
 * Two readings' masks (each sorted and disjoint) as one sorted, disjoint list: spans that
 * overlap become one covering both, typed as the longer, so nothing either reading masked
 * is left readable.
 */
export function unionSpans(a: readonly Span[], b: readonly Span[]): Span[] {
  const all = [...a, ...b].sort((x, y) => x.start - y.start || y.end - x.end);
  const out: Span[] = [];
  let widest = 0; // length of the widest span merged into the last output span
  for (const s of all) {
    const last = out[out.length - 1];
    if (last && s.start < last.end) {
      const type = s.end - s.start > widest ? s.type : last.type;
      widest = Math.max(widest, s.end - s.start);
      out[out.length - 1] = { type, start: last.start, end: Math.max(last.end, s.end) };
    } else {
      widest = s.end - s.start;
      out.push({ type: s.type, start: s.start, end: s.end });
    }
  }
  return out;
}

/** Replaces each span (sorted, disjoint) of `input` with its type's placeholder. */
export function render(input: string, spans: readonly Span[]): string {
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += input.slice(at, s.start) + PLACEHOLDERS[s.type];
    at = s.end;
  }
  return out + input.slice(at);
}

/**
 * Maps spans found in `render(input, spans)` (sorted, disjoint) back to `input`
 * coordinates, in one walk over both lists. A span touching a placeholder is left out: no
 * detector should produce one, and masking it would mean re-detecting our own output.
 */
export function toInputSpans(found: readonly Span[], spans: readonly Span[]): Span[] {
  const mapped: Span[] = [];
  let delta = 0; // output position − input position, after the spans passed so far
  let i = 0;
  for (const f of found) {
    // Placeholders wholly before f only shift it.
    while (
      i < spans.length &&
      spans[i].start + delta + PLACEHOLDERS[spans[i].type].length <= f.start
    ) {
      delta += PLACEHOLDERS[spans[i].type].length - (spans[i].end - spans[i].start);
      i++;
    }
    if (i < spans.length && spans[i].start + delta < f.end) {
      continue; // overlaps the next placeholder
    }
    mapped.push({ type: f.type, start: f.start - delta, end: f.end - delta });
  }
  return mapped;
}
