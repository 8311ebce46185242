import type { Detection } from './detectors/detector';
import { PLACEHOLDERS } from './entity-types';
import type { Span } from './resolve';

/**
 * A later pass can only find something near a mask the previous pass added: elsewhere its
 * text is what the previous pass already read (every pattern reaches under 1 KiB, see
 * `linear.ts`, and context checks 48 characters). So it reads windows of this radius
 * around the new masks rather than the whole text.
 */
export const RESCAN_RADIUS = 2048;
/**
 * A candidate this close to a window edge that cuts the text may be a truncated match or
 * lack its context; it is dropped, and the wide radius keeps every candidate near a mask
 * well inside.
 */
const EDGE_MARGIN = 1024;
/** Texts up to this long are rescanned whole as often as needed (three later passes). */
const WHOLE_RESCAN_CHARS = 8 * 1024;

/** A `[start, end)` stretch of the rendered text that a later pass reads. */
export interface Window {
  start: number;
  end: number;
}

/**
 * How many characters all later passes together may read: three whole passes for a short
 * text, one for a long one, of the text as the first pass rendered it (`length`: placeholders
 * can make it longer than the input). The second pass always fits (its windows never exceed
 * that text), so it sees everything the old whole-text pass saw; the bound is what stops a text
 * built so that every pass unlocks another mask from costing four whole passes.
 */
export function rescanBudget(length: number): number {
  return Math.max(3 * Math.min(length, WHOLE_RESCAN_CHARS), length);
}

/**
 * Where the placeholders of `fresh` (a subset of `spans`, both sorted by start, in `text`
 * coordinates) sit in `render(text, spans)`, whose length is also returned.
 */
export function freshMarks(
  textLength: number,
  spans: readonly Span[],
  fresh: ReadonlySet<Span>,
): { marks: Window[]; length: number } {
  const marks: Window[] = [];
  let delta = 0; // output position − text position after the spans passed so far
  for (const s of spans) {
    const width = PLACEHOLDERS[s.type].length;
    if (fresh.has(s)) {
      marks.push({ start: s.start + delta, end: s.start + delta + width });
    }
    delta += width - (s.end - s.start);
  }
  return { marks, length: textLength + delta };
}

/**
 * Merged windows of {@link RESCAN_RADIUS} around `marks` (sorted) in a text of `length`,
 * taken in order while their total fits `budget`.
 */
export function rescanWindows(marks: readonly Window[], length: number, budget: number): Window[] {
  const windows: Window[] = [];
  for (const m of marks) {
    const start = Math.max(0, m.start - RESCAN_RADIUS);
    const end = Math.min(length, m.end + RESCAN_RADIUS);
    const last = windows[windows.length - 1];
    if (last && start <= last.end) {
      last.end = Math.max(last.end, end);
    } else {
      windows.push({ start, end });
    }
  }
  const taken: Window[] = [];
  let spent = 0;
  for (const w of windows) {
    spent += w.end - w.start;
    if (spent > budget) {
      break;
    }
    taken.push(w);
  }
  return taken;
}

/**
 * Candidates of `detect` on each window of `text`, in `text` coordinates, without those
 * within {@link EDGE_MARGIN} of an edge that cuts the text.
 */
export function detectInWindows(
  text: string,
  windows: readonly Window[],
  detect: (window: string) => Detection[],
): Detection[] {
  const out: Detection[] = [];
  for (const w of windows) {
    const from = w.start > 0 ? w.start + EDGE_MARGIN : 0;
    const to = w.end < text.length ? w.end - EDGE_MARGIN : text.length;
    for (const c of detect(text.slice(w.start, w.end))) {
      const start = c.start + w.start;
      const end = c.end + w.start;
      if (start >= from && end <= to) {
        out.push({ type: c.type, start, end, score: c.score });
      }
    }
  }
  return out;
}
