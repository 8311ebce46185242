/**
 * Labels stored with history (a conversation's channel) leave with every excerpt and hit,
 * beside the redacted text but not through it. Ingest now holds a channel to a word, but
 * rows stored before that rule, or written by another path, may hold anything: a number, an
 * address. So a label leaves only in a shape that cannot carry a value, else as
 * {@link WITHHELD_LABEL}. The redactor does not read names, so a shape is the stricter test.
 */

/** A word: a letter, then letters, digits, `_` or `-` (the ingest rule for channels). */
const LABEL_WORD = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;
/**
 * Most digits a label may hold ("web2", "channel-10"): too few for a phone, card, SSN or a
 * year, so no date of birth either.
 */
const MAX_LABEL_DIGITS = 3;
const DIGIT = /\d/g;

/** What leaves in place of a label that is not a word. */
export const WITHHELD_LABEL = 'redacted';

/** Whether `value` may leave the service as written (see above). */
export function isLabelWord(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    LABEL_WORD.test(value) &&
    (value.match(DIGIT)?.length ?? 0) <= MAX_LABEL_DIGITS
  );
}

/** `value` when it is a word, {@link WITHHELD_LABEL} otherwise. */
export function outgoingLabel(value: unknown): string {
  return isLabelWord(value) ? value : WITHHELD_LABEL;
}
