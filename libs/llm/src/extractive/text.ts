/**
 * Sentence splitting and term normalisation for the extractive answerer. Dependency-free and
 * deterministic; English-leaning (stop words, suffix stripping) but tokenises any script.
 */

/** Function words and question scaffolding: they say nothing about what is being asked. */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before ' +
    'being below between both but by can cannot could did do does doing down during each few for ' +
    'from further had has have having he her here hers him his how i if in into is it its itself ' +
    'just let me more most my myself no nor not now of off on once only or other our ours out over ' +
    'own same she should so some such than that the their theirs them then there these they this ' +
    'those through to too under until up very was we were what when where which while who whom why ' +
    'will with would you your yours im ive id dont doesnt didnt isnt arent cant wont may might ' +
    'must shall us get got go going yes tell explain please know like want need mean means ' +
    'exactly really thing things anything something someone'
  ).split(' '),
);

/** Words that end with a period without ending the sentence. */
const ABBREVIATIONS: ReadonlySet<string> = new Set(
  'mr mrs ms dr prof sr jr st vs etc eg ie approx inc ltd co corp no fig dept est'.split(' '),
);

/** A leading list marker ("- ", "* ", "• ", "1. ", "2) "), dropped from a sentence. */
const BULLET = /^\s*(?:[-*•]|\d{1,2}[.)])\s+/u;

/** Sentence end: terminal punctuation, optional closing quotes/brackets, then whitespace. */
const SENTENCE_END = /[.!?]+["'”’)\]]*\s+/gu;

/**
 * Splits a passage into sentences, in order. Line breaks always end a unit (headings, list
 * items); within a line a sentence ends at `.`, `!` or `?` followed by whitespace and an
 * upper-case letter, a digit or an opening quote, unless the word before is a known
 * abbreviation ("Dr. Lee", "e.g. Circles"). Every returned sentence is a substring of the
 * passage (list markers and surrounding whitespace trimmed).
 */
export function splitSentences(passage: string): string[] {
  const out: string[] = [];
  for (const line of passage.split(/\r?\n+/)) {
    const text = line.replace(BULLET, '').trim();
    if (!text) {
      continue;
    }
    let start = 0;
    for (const match of text.matchAll(SENTENCE_END)) {
      const end = (match.index ?? 0) + match[0].length;
      const next = text.charAt(end);
      if (!/[\p{Lu}\p{N}"'“‘([]/u.test(next)) {
        continue;
      }
      const before = /([\p{L}.]+)[.!?]+["'”’)\]]*\s+$/u.exec(text.slice(start, end));
      const word = before?.[1].replace(/\./g, '').toLowerCase() ?? '';
      if (match[0].startsWith('.') && (ABBREVIATIONS.has(word) || word.length === 1)) {
        continue;
      }
      out.push(text.slice(start, end).trim());
      start = end;
    }
    const rest = text.slice(start).trim();
    if (rest) {
      out.push(rest);
    }
  }
  return out;
}

/**
 * Light suffix stripping so "roles"/"role", "defined"/"defines"/"define" and
 * "policies"/"policy" meet. Not a real stemmer: it only has to map a question's words and a
 * passage's words to the same key, and it never changes what is emitted.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /\p{N}/u.test(w)) {
    return w;
  }
  if (w.endsWith('ies') && w.length > 4) {
    w = `${w.slice(0, -3)}y`;
  } else if (w.endsWith('sses')) {
    w = w.slice(0, -2);
  } else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) {
    w = w.slice(0, -1);
  }
  if (w.endsWith('ing') && w.length >= 6) {
    w = w.slice(0, -3);
  } else if (w.endsWith('ed') && w.length >= 5) {
    w = w.slice(0, -2);
  }
  if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ll|ss|zz|ff)$/.test(w)) {
    w = w.slice(0, -1);
  }
  if (w.endsWith('e') && w.length > 3) {
    w = w.slice(0, -1);
  }
  return w;
}

/** The terms that carry meaning: lower-cased, apostrophes folded, stop words out, stemmed. */
export function terms(text: string): string[] {
  const words = text
    .toLowerCase()
    .replace(/[\u2018\u2019']/g, '')
    .match(/[\p{L}\p{N}]+/gu);
  return (words ?? [])
    .filter((w) => !STOP_WORDS.has(w) && (w.length > 1 || /\p{N}/u.test(w)))
    .map(stem);
}

/** Number of whitespace-separated words. */
export const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;
