import { splitSentences, terms, wordCount } from './text';

export interface SelectionOptions {
  /** Soft length budget of the answer, in characters. The best sentence is always kept. */
  budgetChars: number;
  /** At most this many sentences chosen for their own score. */
  maxSentences: number;
  /**
   * Below this many words the answer is padded with the chosen sentences' neighbours, so
   * that a grounded answer is not mistaken for an "I don't know" by the chat's
   * under-20-tokens rule.
   */
  minWords: number;
  /** Sentences scoring below this share of the best one are not chosen for their score. */
  relativeFloor: number;
}

export const DEFAULT_SELECTION: SelectionOptions = {
  budgetChars: 700,
  maxSentences: 4,
  minWords: 30,
  relativeFloor: 0.4,
};

/** One sentence of the retrieved context, with where it came from and how it scored. */
export interface ScoredSentence {
  text: string;
  passage: number;
  position: number;
  score: number;
}

/** BM25's usual constants: term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;
/** Retrieval put the passages best first; a sentence of the first one gets up to +10%. */
const PASSAGE_PRIOR = 0.1;

/** Headings and labels: short lines without terminal punctuation say nothing on their own. */
const isHeading = (s: string) => !/[.!?]["'”’)\]]*$/u.test(s) && wordCount(s) < 6;

/**
 * Every sentence of the passages, scored against the question with BM25 (each sentence a
 * document, IDF over all of them) and a mild prior for the passage's retrieval rank. Exact
 * duplicates (a topic summary repeating its chunk) are kept once, at their first place.
 * Sentences sharing no term with the question score 0.
 */
export function scoreSentences(question: string, passages: readonly string[]): ScoredSentence[] {
  const seen = new Set<string>();
  const units: Array<{ text: string; passage: number; position: number; terms: string[] }> = [];
  passages.forEach((passage, p) => {
    splitSentences(passage).forEach((text, position) => {
      const key = text.toLowerCase().replace(/\s+/g, ' ');
      if (wordCount(text) < 3 || isHeading(text) || seen.has(key)) {
        return;
      }
      seen.add(key);
      units.push({ text, passage: p, position, terms: terms(text) });
    });
  });
  const query = [...new Set(terms(question))];
  if (units.length === 0 || query.length === 0) {
    return units.map(({ text, passage, position }) => ({ text, passage, position, score: 0 }));
  }

  const n = units.length;
  const avgLength = units.reduce((sum, u) => sum + u.terms.length, 0) / n || 1;
  const df = new Map<string, number>();
  for (const u of units) {
    for (const t of new Set(u.terms)) {
      df.set(t, (df.get(t) ?? 0) + 1);
    }
  }
  return units.map(({ text, passage, position, terms: unitTerms }) => {
    let bm25 = 0;
    for (const q of query) {
      const tf = unitTerms.reduce((c, t) => c + (t === q ? 1 : 0), 0);
      if (tf === 0) {
        continue;
      }
      const d = df.get(q) ?? 0;
      const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      bm25 += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * unitTerms.length) / avgLength));
    }
    const prior = 1 + PASSAGE_PRIOR / (1 + passage);
    return { text, passage, position, score: bm25 * prior };
  });
}

const byScore = (a: ScoredSentence, b: ScoredSentence) =>
  b.score - a.score || a.passage - b.passage || a.position - b.position;
const byReadingOrder = (a: ScoredSentence, b: ScoredSentence) =>
  a.passage - b.passage || a.position - b.position;

/**
 * The sentences of the extractive answer: the best-matching ones (by {@link
 * scoreSentences}), at most `maxSentences` and about `budgetChars`, padded to `minWords`
 * with neighbouring sentences when short, in reading order (passage by passage, sentences
 * in their own order). None when no sentence shares a term with the question.
 */
export function chooseSentences(
  question: string,
  passages: readonly string[],
  options: SelectionOptions = DEFAULT_SELECTION,
): ScoredSentence[] {
  const all = scoreSentences(question, passages);
  const ranked = all.filter((s) => s.score > 0).sort(byScore);
  if (ranked.length === 0) {
    return [];
  }
  const chosen: ScoredSentence[] = [ranked[0]];
  let chars = ranked[0].text.length;
  const fits = (s: ScoredSentence) => chars + 1 + s.text.length <= options.budgetChars;
  const take = (s: ScoredSentence) => {
    chosen.push(s);
    chars += 1 + s.text.length;
  };

  for (const s of ranked.slice(1)) {
    if (
      chosen.length >= options.maxSentences ||
      s.score < options.relativeFloor * ranked[0].score
    ) {
      break;
    }
    if (fits(s)) {
      take(s);
    }
  }

  const words = () => chosen.reduce((sum, s) => sum + wordCount(s.text), 0);
  if (words() < options.minWords) {
    // Context around what was chosen (next sentence first: it usually continues the thought),
    // then the weaker matches.
    const neighbours = chosen.flatMap((c) =>
      [c.position + 1, c.position - 1].flatMap((position) =>
        all.filter((s) => s.passage === c.passage && s.position === position),
      ),
    );
    for (const s of [...neighbours, ...ranked]) {
      if (words() >= options.minWords) {
        break;
      }
      if (!chosen.includes(s) && fits(s)) {
        take(s);
      }
    }
  }

  return chosen.sort(byReadingOrder);
}

/**
 * The extractive answer: {@link chooseSentences} joined by a space within a passage and a
 * blank line between passages. Every character comes from the passages except those
 * separators; empty when nothing matches.
 */
export function selectAnswer(
  question: string,
  passages: readonly string[],
  options: SelectionOptions = DEFAULT_SELECTION,
): string {
  const chosen = chooseSentences(question, passages, options);
  return chosen
    .map((s, i) => (i === 0 ? '' : s.passage === chosen[i - 1].passage ? ' ' : '\n\n') + s.text)
    .join('');
}
