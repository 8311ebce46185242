/**
 * E-mail addresses spelled out letter by letter: "a l i c e @ e x a m p l e . c o m",
 * "a l i c e at e x a m p l e dot c o m", "a-l-i-c-e@e-x-a-m-p-l-e.c-o-m",
 * "a.l.i.c.e@e.x.a.m.p.l.e.c.o.m". A caller dictating an address, or someone hiding one from
 * a scraper, writes it this way; every other pattern sees only single letters.
 *
 * Anchored on each "@" form the spoken detector finds (see `spoken-email.ts`): from it, a
 * bounded walk back over the local part and forward over the domain, reading *tokens* (one
 * letter or digit standing alone) and the *gaps* between them (a blank or two, a `.`, `-`
 * or `_`, or a spoken "dot"). Evidence is the spelling itself: one side spelled (two tokens
 * or more), and the domain ending in a common TLD: after the last dot gap when the letters
 * are joined otherwise ("e x a m p l e . c o m"), or as the joined letters' suffix when
 * every gap is alike ("e.x.a.m.p.l.e.c.o.m"). Walks stop at {@link MAX_TOKENS} tokens, so
 * each anchor reads a bounded stretch: linear in the text.
 */
import { BASE_CONFIDENCE } from '../entity-types';
import type { Detection } from './detector';

/** An address has at most 64 characters in its local part and 63 in a label. */
const MAX_TOKENS = 64;
const MAX_TLD = 4;

const isAlnum = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isBlank = (c: number): boolean => c === 32 || c === 9;
const isJoiner = (c: number): boolean => c === 46 || c === 45 || c === 95;
/** "dot" in any case at `at`. */
const isDotWord = (text: string, at: number): boolean =>
  (text.charCodeAt(at) | 0x20) === 100 &&
  (text.charCodeAt(at + 1) | 0x20) === 111 &&
  (text.charCodeAt(at + 2) | 0x20) === 116;
/** A written TLD (two to four letters ending a word) at `at`, lower-cased, or undefined. */
function tldWordAt(text: string, at: number, tlds: ReadonlySet<string>): string | undefined {
  let i = at;
  while (i < text.length && i - at <= MAX_TLD && ((text.charCodeAt(i) | 0x20) - 97) >>> 0 < 26) {
    i++;
  }
  const c = text.charCodeAt(i);
  if (i - at < 2 || i - at > MAX_TLD || isAlnum(c) || c === 95 || c === 45) {
    return undefined;
  }
  const word = text.slice(at, i).toLowerCase();
  return tlds.has(word) ? word : undefined;
}

/** A gap between two spelled tokens: its `[start, end)` and whether it says "dot". */
interface Gap {
  start: number;
  end: number;
  /** `.`, ` . ` or a spoken " dot ". */
  dot: boolean;
  /** The gap's own character, for telling letter gaps from label dots: ' ', '.', '-', '_'. */
  kind: number;
}

/** The gap starting at `at`, reading forward, or undefined. */
function gapAfter(text: string, at: number): Gap | undefined {
  let i = at;
  while (i < text.length && i - at < 2 && isBlank(text.charCodeAt(i))) {
    i++;
  }
  const blanks = i > at;
  let kind = blanks ? 32 : 0;
  const c = text.charCodeAt(i);
  if (isJoiner(c)) {
    kind = c;
    i++;
  } else if (blanks && isDotWord(text, i) && isBlank(text.charCodeAt(i + 3))) {
    kind = 46;
    i += 3;
  }
  const head = i;
  while (i < text.length && i - head < 2 && isBlank(text.charCodeAt(i))) {
    i++;
  }
  return kind === 0 ? undefined : { start: at, end: i, dot: kind === 46, kind };
}

/** The gap ending at `end`, reading backward, or undefined. */
function gapBefore(text: string, end: number): Gap | undefined {
  let i = end;
  while (i > 0 && end - i < 2 && isBlank(text.charCodeAt(i - 1))) {
    i--;
  }
  const blanks = i < end;
  let kind = blanks ? 32 : 0;
  const c = text.charCodeAt(i - 1);
  if (i > 0 && isJoiner(c)) {
    kind = c;
    i--;
  } else if (blanks && i >= 4 && isDotWord(text, i - 3) && isBlank(text.charCodeAt(i - 4))) {
    kind = 46;
    i -= 3;
  }
  const beforeHead = i;
  while (i > 0 && beforeHead - i < 2 && isBlank(text.charCodeAt(i - 1))) {
    i--;
  }
  return kind === 0 ? undefined : { start: i, end, dot: kind === 46, kind };
}

/** Whether a lone letter or digit stands at `at` (no letter or digit on either side). */
function tokenAt(text: string, at: number): boolean {
  return (
    at >= 0 &&
    at < text.length &&
    isAlnum(text.charCodeAt(at)) &&
    !isAlnum(text.charCodeAt(at - 1)) &&
    !isAlnum(text.charCodeAt(at + 1))
  );
}

/** Where a spelled local part ending at `end` starts, and its token count. */
function spelledLocal(text: string, end: number): { start: number; tokens: number } {
  let start = end;
  let tokens = 0;
  let at = end;
  while (tokens < MAX_TOKENS) {
    const gap = tokens === 0 ? { start: at } : gapBefore(text, at);
    if (!gap || !tokenAt(text, gap.start - 1)) {
      break;
    }
    tokens++;
    start = gap.start - 1;
    at = start;
  }
  return { start, tokens };
}

/** Where a written local part (one word of address characters) ending at `end` starts. */
function writtenLocal(text: string, end: number): number {
  let s = end;
  while (s > 0 && end - s < MAX_TOKENS) {
    const c = text.charCodeAt(s - 1);
    if (!isAlnum(c) && !isJoiner(c) && c !== 43) {
      break;
    }
    s--;
  }
  return s;
}

/** A spelled domain from `at`: where it ends and how many tokens it has, if it ends in a TLD. */
function spelledDomain(
  text: string,
  at: number,
  tlds: ReadonlySet<string>,
): { end: number; tokens: number; uniform: boolean } | undefined {
  let letters = '';
  let letterKind = 0; // the first gap that is not a dot: what joins the letters
  let lastDot = -1; // letters before the last dot gap
  let i = at;
  let end = at;
  let tld: string | undefined;
  while (letters.length < MAX_TOKENS && tokenAt(text, i)) {
    letters += text[i].toLowerCase();
    end = i + 1;
    const gap = gapAfter(text, end);
    if (!gap) {
      break;
    }
    if (!tokenAt(text, gap.end)) {
      // A written TLD after a spelled label's dot: "e x a m p l e . com".
      tld = gap.dot ? tldWordAt(text, gap.end, tlds) : undefined;
      end = tld ? gap.end + tld.length : end;
      break;
    }
    letterKind ||= gap.dot ? 0 : gap.kind;
    lastDot = gap.dot ? letters.length : lastDot;
    i = gap.end;
  }
  if (letters.length === 0 || (letters.length < 2 && !tld)) {
    return undefined;
  }
  if (tld) {
    return { end, tokens: letters.length, uniform: false };
  }
  if (letterKind !== 0 && lastDot > 0) {
    const ok = tlds.has(letters.slice(lastDot));
    return ok ? { end, tokens: letters.length, uniform: false } : undefined;
  }
  // Every gap alike: the TLD is a suffix of the joined letters, with a label of two or more
  // before it. Weak on its own ("at M.I.T." ends in "it"): see `spelledEmailAt`.
  for (let n = 2; n <= MAX_TLD && n <= letters.length - 2; n++) {
    if (tlds.has(letters.slice(-n))) {
      return { end, tokens: letters.length, uniform: true };
    }
  }
  return undefined;
}

/**
 * Whether two lone letters or digits stand on one side of the "@" form `[start, end)`: the
 * least a spelled address has, and cheap to rule out at every other "@" or "at".
 */
export function spelledAround(text: string, start: number, end: number): boolean {
  if (tokenAt(text, start - 1)) {
    const gap = gapBefore(text, start - 1);
    if (gap && tokenAt(text, gap.start - 1)) {
      return true;
    }
  }
  if (tokenAt(text, end)) {
    const gap = gapAfter(text, end + 1);
    return gap !== undefined && tokenAt(text, gap.end);
  }
  return false;
}

/**
 * The spelled address around the "@" form `at` (its `[start, end)`), pushed to `out` when
 * found. `writtenDomainEnd` says where a written domain after it ends (or -1), asked only
 * when the local part is spelled and the domain is not; `notMailbox`
 * holds the words never read as a local part ("me at h o m e . c o m").
 */
export function spelledEmailAt(
  text: string,
  at: { start: number; end: number },
  writtenDomainEnd: () => number,
  tlds: ReadonlySet<string>,
  notMailbox: ReadonlySet<string>,
  out: Detection[],
): void {
  const local = spelledLocal(text, at.start);
  const domain = spelledDomain(text, at.end, tlds);
  const localSpelled = local.tokens >= 2;
  if (!localSpelled && !(domain && domain.tokens >= 2)) {
    return;
  }
  // A domain whose TLD is only a guessed suffix needs a spelled local part too, or a real
  // "@": "a professor at M.I.T." is prose.
  if (domain?.uniform && !localSpelled && !text.slice(at.start, at.end).includes('@')) {
    return;
  }
  const end = domain ? domain.end : writtenDomainEnd();
  if (end < 0) {
    return;
  }
  let start = local.start;
  if (!localSpelled) {
    start = writtenLocal(text, at.start);
    const word = text.slice(start, at.start);
    if (start === at.start || notMailbox.has(word.toLowerCase())) {
      return;
    }
  }
  out.push({ type: 'EMAIL', start, end, score: BASE_CONFIDENCE.EMAIL - 0.1 });
}
