/**
 * Inputs built to make backtracking regexes go quadratic or worse: long runs of digits,
 * separators, repeated "dot"/"at" words, long words and hyphen chains. Shared by the
 * property test (which only checks that every detector finishes and stays consistent)
 * and `bench:redact` (which times them against a plain scan).
 */
export const ADVERSARIAL_SEEDS: readonly string[] = [
  '1',
  '1 ',
  '1-',
  '1.',
  '1/',
  '12 ',
  ' ',
  '\u00a0',
  '\u200b1',
  '-',
  'a-',
  'x dot ',
  'a dot a at ',
  ' at ',
  '::',
  '1:',
  'a1:',
  'A1',
  'GB82 ',
  'Aa ',
  'rue ',
  'Calle Mayor ',
  'Aa Street 1, ',
  'ship it to 1 Aa, ',
  'de ',
  '@a.',
  'a@',
  'four ',
  'one oh ',
  '٣',
  '１ ',
  '1\t',
  '1\n',
  '1\u2013',
];

/** `seed` repeated to `bytes` characters, after an optional prefix. */
export function adversarial(seed: string, bytes: number, prefix = ''): string {
  return (prefix + seed.repeat(Math.ceil(bytes / seed.length))).slice(0, bytes);
}
