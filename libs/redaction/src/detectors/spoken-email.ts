import { allMatches } from '../all-matches';
import { BASE_CONFIDENCE } from '../entity-types';
import { linear } from '../linear';
import { type Detection, hasContext } from './detector';
import { spelledAround, spelledEmailAt } from './spelled-email';

/**
 * E-mail addresses with the "@" or the dots said as words. "at" and "dot" are ordinary
 * words, so each form needs evidence that it is a mailbox:
 * - spoken dots in the domain ("john dot smith at gmail dot com", "jane [at] example
 *   [dot] com") end in a common TLD;
 * - a written domain after a spoken "at" ("alice.jones at example.com") also needs a local
 *   part shaped like a mailbox (a dot, digit, `_`, `+` or `-` in it, or a spoken "dot"), a
 *   common mailbox provider ("alice at gmail.com"), an e-mail word shortly before ("email
 *   alice at example.com"), the bracketed "[at]", or an "@" written as a symbol or entity
 *   ("alice @ example.com", "alice&#64;example.com"). A pronoun or place word is never a
 *   local part: "meet me at home.com" and "find us at shop.com" stay as they are.
 * A two-word local part ("john smith at …") masks only its last word, which is the part
 * that identifies the mailbox.
 */

// prettier-ignore
const TLDS = ['com', 'net', 'org', 'edu', 'gov', 'mil', 'io', 'co', 'us', 'uk', 'ca', 'de', 'fr',
  'es', 'it', 'nl', 'br', 'mx', 'in', 'au', 'info', 'biz', 'me', 'ai', 'app', 'dev'];
const TLD = `(?:${TLDS.join('|')})`;
const TLD_SET: ReadonlySet<string> = new Set(TLDS);
/**
 * The "@" as a word, bracketed ("[at]", "{at}", "[@]"), spaced ("alice @ example.com") or
 * encoded as an HTML entity or in a URL ("&#64;", "&commat;", "%40"): all ways people and
 * web forms hide it from scrapers, and all still an address to whoever reads the text.
 */
const AT_MARK = String.raw`(?:@|&#0{0,4}64;|&#[xX]0{0,4}40;|&commat;|%40)`;
/**
 * The "@" said in the languages we hear ("arobase", "arroba", "chiocciola", "klammeraffe"):
 * words that mean nothing else, so each is itself evidence of an address.
 */
const AT_WORDS = String.raw`(?:arobase|arroba|chiocciola|klammeraffe)`;
// Two branches, words between blanks and marks with optional blanks, so that the engine,
// which tries this at every position of a text holding an "at", fails fast at most of them.
const AT = String.raw`(?=[\s[({<@&%_-])(?:\s{1,4}(?:at(?:[\s-]{1,2}(?:sign|symbol))?|${AT_WORDS})\s{1,4}|\s{0,4}(?:[[({<]\s{0,2}(?:at|@)\s{0,2}[\])}>]|${AT_MARK}|-at-|_at_)\s{0,4})`;
/**
 * The dot as a word ("dot", and "point", "punto", "punkt", "ponto"), bracketed ("[dot]",
 * "[.]", "<dot>"), wrapped ("-dot-", "_dot_"), or an HTML entity.
 */
const DOT = String.raw`(?:\s{1,4}(?:dot|point|punto|punkt|ponto)\s{1,4}|\s{0,4}[[({<]\s{0,2}(?:dot|\.)\s{0,2}[\])}>]\s{0,4}|\s{0,4}(?:-dot-|_dot_)\s{0,4}|&#0{0,4}46;|&#[xX]0{0,4}2[eE];|&period;)`;
/**
 * Characters of a domain label, of a local-part word, and of a local part: never the start
 * of a dash- or underscore-wrapped "dot" (or, before the "at", "at"). A label that could
 * also swallow "-dot-" let the engine try every split of "b-dot-b-dot-…" into labels: a
 * bounded window, but 1.3 s per KB of it.
 */
const LABEL = String.raw`(?:[a-z0-9]|-(?!dot-)|_(?!dot_))`;
const WORD = String.raw`(?:[a-z0-9]|-(?!dot-|at-)|_(?!dot_|at_))`;
const LOCAL = String.raw`(?:[a-z0-9+]|-(?!dot-|at-)|_(?!dot_|at_))`;
/**
 * A match starts only where no local-part character precedes, so each word is tried once;
 * every part is bounded (local part 64, labels 63), so each attempt reads a bounded window,
 * and splits it one way only (no part reads a separator).
 */
const SPOKEN_DOT_EMAIL = linear(
  new RegExp(
    String.raw`(?<![\w.+-])[a-z0-9](?:${LOCAL}|\.${LOCAL}){0,63}(?:${DOT}${WORD}{1,63}){0,4}${AT}[a-z0-9]${LABEL}{0,62}(?:${DOT}${LABEL}{1,63}){0,4}${DOT}${TLD}\b`,
    'gi',
  ),
);
/**
 * A written "@" before a domain whose dots are spaced out or written as commas
 * ("alice@example . com", "alice@example,com"): spacing a dot is how an address is hidden
 * from a scraper. Only after a real "@", since "at home . Me too" is prose.
 */
const LOOSE_DOT = String.raw`(?:\s{0,4}[.,]\s{0,4}|${DOT})`;
const LOOSE_DOT_EMAIL = linear(
  new RegExp(
    String.raw`(?<![\w.+-])[a-z0-9](?:[\w+-]|\.[\w+-]){0,63}@[a-z0-9]${LABEL}{0,62}(?:${LOOSE_DOT}${LABEL}{1,63}){0,4}${LOOSE_DOT}${TLD}\b`,
    'gi',
  ),
);
/**
 * What every spoken-dot address ends with: the end of a dot form (a word, a bracket, a
 * dash or an entity's ";") before a TLD. A cheap test, so prose skips the full pattern.
 */
const HAS_SPOKEN_DOT = linear(
  new RegExp(String.raw`(?:dot|point|punto|punkt|ponto|[\])}>_;-])\s{0,4}${TLD}\b`, 'i'),
);

/** A spoken "at" (or "[at]"); the local part is found by walking back from it. */
const SPOKEN_AT = linear(new RegExp(AT, 'gi'));
const HAS_AT_WORD = linear(
  /\bat\b|_at_|@|&#0{0,4}64;|&#x0{0,4}40;|&commat;|%40|arobase|arroba|chiocciola|klammeraffe/i,
);
/**
 * An "at" dressed up to dodge scrapers (bracketed, wrapped in dashes, "at sign") or said in
 * another language: itself evidence of an address.
 */
const DRESSED_AT = /[[({<_-]|sign|symbol|arobase|arroba|chiocciola|klammeraffe/i;
/** An "@" symbol or entity: evidence unless spaced out around a number ("4.5 @ x.com"). */
const SYMBOL_AT = /[@&%]/;
const SPACED = /\s/;
const LETTER = /[a-z]/i;
/** A written domain right after the "at": dotted labels and a common TLD, ending there. */
const WRITTEN_DOMAIN = linear(
  new RegExp(
    String.raw`(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){1,8}${TLD}(?![\w-]|\.[a-z0-9])`,
    'iy',
  ),
);
/** " dot " right before a local-part word ("alice dot jones at …"). */
const DOT_BEFORE = linear(/\s{1,4}dot\s{1,4}$/i);
const LOCAL_MAX = 64;
const LOCAL_SHAPE = /^[a-z0-9](?:[\w+-]|\.(?=[\w+-]))*$/i;
const MAILBOX_MARK = /[\d._+-]/;
const MAILBOX_PROVIDER =
  /^(?:gmail|googlemail|yahoo|ymail|hotmail|outlook|live|msn|icloud|mac|aol|proton|protonmail|pm|gmx|yandex|zoho|fastmail|comcast|verizon|att|sbcglobal)\./i;
const EMAIL_WORD = /\b(?:e-?mail(?:ed|ing)?|mailbox|inbox|address)\b/i;
// prettier-ignore
const NOT_A_MAILBOX: ReadonlySet<string> = new Set([
  'me', 'us', 'you', 'him', 'her', 'them', 'it', 'we', 'i', 'they', 'he', 'she', 'one', 'this',
  'that', 'home', 'work', 'school', 'here', 'there', 'online', 'site', 'store', 'shop', 'look',
  'available', 'sold', 'found', 'out', 'up', 'now', 'is', 'are', 'was', 'be', 'or', 'and',
]);

const isLocalChar = (c: number): boolean =>
  (c >= 48 && c <= 57) ||
  (c >= 65 && c <= 90) ||
  (c >= 97 && c <= 122) ||
  c === 46 ||
  c === 95 ||
  c === 43 ||
  c === 45;

/**
 * Where the local part ending at `end` starts: one word of local-part characters, or up to
 * five joined by a spoken " dot ". Bounded walk: at most {@link LOCAL_MAX} characters a word.
 */
function localStart(text: string, end: number): { start: number; spokenDot: boolean } | undefined {
  let start = end;
  let spokenDot = false;
  for (let words = 0; words < 5; words++) {
    let s = start;
    while (s > 0 && start - s < LOCAL_MAX && isLocalChar(text.charCodeAt(s - 1))) {
      s--;
    }
    if (s === start || (s > 0 && isLocalChar(text.charCodeAt(s - 1)))) {
      return words > 0 ? { start, spokenDot } : undefined; // no word, or one too long
    }
    start = s;
    const dot = DOT_BEFORE.exec(text.slice(Math.max(0, start - 12), start));
    if (
      !dot ||
      start - dot[0].length === 0 ||
      !isLocalChar(text.charCodeAt(start - dot[0].length - 1))
    ) {
      break;
    }
    start -= dot[0].length;
    spokenDot = true;
  }
  return { start, spokenDot };
}

/** Whether `local at domain` reads as a mailbox rather than "meet me at home.com". */
function mailboxEvidence(
  text: string,
  local: { start: number; spokenDot: boolean },
  localText: string,
  at: string,
  domain: string,
): boolean {
  if (DRESSED_AT.test(at)) {
    return true;
  }
  if (NOT_A_MAILBOX.has(localText.toLowerCase())) {
    return false;
  }
  return (
    (SYMBOL_AT.test(at) && (!SPACED.test(at) || LETTER.test(localText))) ||
    local.spokenDot ||
    MAILBOX_MARK.test(localText) ||
    MAILBOX_PROVIDER.test(domain) ||
    hasContext(text, local.start, local.start, EMAIL_WORD, 40)
  );
}

/** Where a written domain starting at `at` ends, or -1. */
function writtenDomainEnd(text: string, at: number): number {
  WRITTEN_DOMAIN.lastIndex = at;
  return WRITTEN_DOMAIN.exec(text) ? WRITTEN_DOMAIN.lastIndex : -1;
}

/** Spoken and half-spoken e-mail addresses. */
export function detectSpokenEmails(text: string, out: Detection[]): void {
  const score = BASE_CONFIDENCE.EMAIL - 0.1;
  if (HAS_SPOKEN_DOT.test(text)) {
    for (const m of allMatches(SPOKEN_DOT_EMAIL, text)) {
      out.push({ type: 'EMAIL', start: m.index, end: m.index + m[0].length, score });
    }
  }
  if (text.includes('@')) {
    for (const m of allMatches(LOOSE_DOT_EMAIL, text)) {
      out.push({ type: 'EMAIL', start: m.index, end: m.index + m[0].length, score });
    }
  }
  if (!HAS_AT_WORD.test(text)) {
    return;
  }
  for (const at of allMatches(SPOKEN_AT, text)) {
    if (spelledAround(text, at.index, at.index + at[0].length)) {
      const span = { start: at.index, end: at.index + at[0].length };
      const domainEnd = (): number => writtenDomainEnd(text, span.end);
      spelledEmailAt(text, span, domainEnd, TLD_SET, NOT_A_MAILBOX, out);
    }
    if (at[0] === '@') {
      continue; // a plain "@" before a written domain is the written detector's
    }
    WRITTEN_DOMAIN.lastIndex = at.index + at[0].length;
    const domain = WRITTEN_DOMAIN.exec(text);
    const local = domain && localStart(text, at.index);
    if (!domain || !local) {
      continue;
    }
    const localText = text.slice(local.start, at.index);
    const lastWord = localText.slice(localText.lastIndexOf(' ') + 1);
    if (LOCAL_SHAPE.test(lastWord) && mailboxEvidence(text, local, lastWord, at[0], domain[0])) {
      const end = WRITTEN_DOMAIN.lastIndex;
      out.push({ type: 'EMAIL', start: local.start, end, score });
    }
  }
}
