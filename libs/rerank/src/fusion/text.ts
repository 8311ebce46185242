/**
 * Tokenizing shared by the term-overlap score and the boilerplate detector. Deliberately
 * stemming-free and dependency-free: the lexical list from Postgres full-text already brings
 * a stemmed signal, and this only has to work on a pool of about 20 short windows.
 */

/**
 * A compact English stop-word list (articles, pronouns, auxiliaries, prepositions). Kept
 * small on purpose: words such as "order", "help" or "time" carry meaning in support chats.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being ' +
    'below between both but by can cannot could did do does doing down during each few for from ' +
    'further had has have having he her here hers herself him himself his how i if in into is it ' +
    'its itself just let me more most my myself no nor not now of off on once only or other our ' +
    'ours ourselves out over own same she should so some such than that thats the their theirs ' +
    'them themselves then there theres these they this those through to too under until up very ' +
    'was we were what whats when where which while who whom why will with would you your yours ' +
    'yourself yourselves im ive ill id youre youve youll youd hes shes weve were theyre dont ' +
    'doesnt didnt isnt arent wasnt werent cant couldnt wont wouldnt shouldnt also may might must ' +
    'shall us get got go going well yes'
  ).split(' '),
);

/** A leading `speaker:` label such as `customer:`, `agent:` or `Agent Sam:`. */
const SPEAKER_LABEL = /^\s*[\p{L}][\p{L}\p{N}._-]*(?: [\p{L}][\p{L}\p{N}._-]*)?\s*:\s+/u;

/** Removes the speaker label so "customer"/"agent" never count as query matches. */
export function stripSpeaker(line: string): string {
  return line.replace(SPEAKER_LABEL, '');
}

/**
 * Splits on anything that is not a letter or digit, after folding curly apostrophes and
 * joining contractions ("don't" → "dont"). Case is kept; see {@link tokenize}. "ORD-48213"
 * yields "ORD" and "48213", so a query that quotes only the number still matches.
 */
export function rawTokens(text: string): string[] {
  return text
    .replace(/[\u2018\u2019']/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

/** {@link rawTokens}, lower-cased token by token (so indexes line up with the raw tokens). */
export function tokenize(text: string): string[] {
  return rawTokens(text).map((t) => t.toLowerCase());
}

/** Tokens that carry meaning: not a stop word, and not a lone letter. */
export function contentTokens(text: string): string[] {
  return tokenize(text).filter((t) => !STOP_WORDS.has(t) && (t.length > 1 || /\p{N}/u.test(t)));
}

/** The content of a window with speaker labels removed, line by line. */
export function unlabelled(content: string): string {
  return content.split(/\r?\n/).map(stripSpeaker).join('\n');
}
