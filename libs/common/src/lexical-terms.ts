/**
 * The lexical normaliser both vector stores share, so their BM25 legs see the same terms:
 * lower case, accents folded, words of letters/digits (hyphenated compounds are kept whole and
 * as their parts, as Postgres' parser does for `ABC-12345`), the Snowball English stop list
 * (the one Postgres' `english` configuration uses), and Porter's step 1 plus its `-ll` rule,
 * which merge plurals and -ed/-ing forms (`refunds`, `refunded`, `refunding` → `refund`).
 * Derivational suffixes (`cancellation`/`cancel`) stay apart: a full Snowball stemmer would
 * merge those, at the cost of a dependency. It lives here rather than in the vector library
 * because a database migration backfills term statistics with it.
 *
 * Frozen with the migrations (its sha256 is in `migrations.lock.json`): migration 5 wrote the
 * stored postings with it, so a change needs a new normaliser version and a migration that
 * rewrites the postings, not an edit here.
 */

/** BM25 term-frequency saturation and length normalisation (the usual Okapi values). */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** The Snowball English stop words (Postgres' `english.stop`). */
const STOP_WORDS = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his ' +
    'himself she her hers herself it its itself they them their theirs themselves what which ' +
    'who whom this that these those am is are was were be been being have has had having do ' +
    'does did doing a an the and but if or because as until while of at by for with about ' +
    'against between into through during before after above below to from up down in out on ' +
    'off over under again further then once here there when where why how all any both each ' +
    'few more most other some such no nor not only own same so than too very s t can will ' +
    'just don should now'
  ).split(' '),
);

const isVowelAt = (w: string, i: number): boolean =>
  'aeiou'.includes(w[i]) || (w[i] === 'y' && i > 0 && !isVowelAt(w, i - 1));

/** Porter's measure: the number of vowel-consonant sequences in `w`. */
function measure(w: string): number {
  let m = 0;
  for (let i = 1; i < w.length; i++) {
    if (!isVowelAt(w, i) && isVowelAt(w, i - 1)) {
      m++;
    }
  }
  return m;
}

const hasVowel = (w: string): boolean => [...w].some((_, i) => isVowelAt(w, i));

/** Consonant-vowel-consonant ending, the last not w, x or y (Porter's *o condition). */
const endsCvc = (w: string): boolean => {
  const n = w.length;
  return (
    n >= 3 &&
    !isVowelAt(w, n - 1) &&
    isVowelAt(w, n - 2) &&
    !isVowelAt(w, n - 3) &&
    !'wxy'.includes(w[n - 1])
  );
};

/** Porter step 1 (plurals, -ed, -ing, y→i) and step 5b (-ll); digits are left alone. */
export function stem(word: string): string {
  if (word.length <= 2 || /\d/.test(word)) {
    return word;
  }
  let w = word;
  if (w.endsWith('sses') || w.endsWith('ies')) {
    w = w.slice(0, -2);
  } else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) {
    w = w.slice(0, -1);
  }
  if (w.endsWith('eed')) {
    if (measure(w.slice(0, -3)) > 0) {
      w = w.slice(0, -1);
    }
  } else {
    const suffix = w.endsWith('ed') ? 2 : w.endsWith('ing') ? 3 : 0;
    if (suffix && hasVowel(w.slice(0, -suffix))) {
      w = w.slice(0, -suffix);
      const last = w[w.length - 1];
      if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) {
        w += 'e';
      } else if (last === w[w.length - 2] && !isVowelAt(w, w.length - 1) && !'lsz'.includes(last)) {
        w = w.slice(0, -1);
      } else if (measure(w) === 1 && endsCvc(w)) {
        w += 'e';
      }
    }
  }
  if (w.endsWith('y') && hasVowel(w.slice(0, -1))) {
    w = `${w.slice(0, -1)}i`;
  }
  if (w.endsWith('ll') && measure(w) > 1) {
    w = w.slice(0, -1);
  }
  return w;
}

/** The normalised terms of `text`, in order, repeats kept (term frequency counts them). */
export function terms(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  const out: string[] = [];
  for (const [compound] of folded.matchAll(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu)) {
    const parts = compound.split('-');
    if (parts.length > 1) {
      out.push(compound);
    }
    for (const part of parts) {
      if (!STOP_WORDS.has(part)) {
        out.push(stem(part));
      }
    }
  }
  return out;
}

/** A document's term counts and its length in terms (the inputs of BM25). */
export function termFrequencies(text: string): { length: number; tf: Map<string, number> } {
  const all = terms(text);
  const tf = new Map<string, number>();
  for (const term of all) {
    tf.set(term, (tf.get(term) ?? 0) + 1);
  }
  return { length: all.length, tf };
}
