import type { DetectorName } from './detector-table';

/**
 * Inputs built to make backtracking regexes go quadratic or worse: long runs of digits,
 * separators, repeated "dot"/"at" words, long words and hyphen chains. Shared by the
 * property tests and the redaction benchmarks (`bench:redact`, `bench:redact-adversarial`).
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
  '<b>1',
  '<!--1',
  '%201',
  '&#49;',
  '\\u0031',
  '**1',
  '1[.]',
  '+ 1 ',
  ' -at- ',
  '12/',
];

/** `seed` repeated to `bytes` characters, after an optional prefix. */
export function adversarial(seed: string, bytes: number, prefix = ''): string {
  return (prefix + seed.repeat(Math.ceil(bytes / seed.length))).slice(0, bytes);
}

/**
 * One adversarial family: a prefix that satisfies a detector's pre-checks (its hint words),
 * then `unit` repeated. Each detector gets the shapes its patterns could rescan: hyphen and
 * dot chains, repeated hint words, long words, mixed scripts, digit runs, whitespace runs.
 */
export interface AdversarialCase {
  detector: DetectorName;
  name: string;
  prefix: string;
  unit: string;
}

// prettier-ignore
const UNITS: Readonly<Record<DetectorName, ReadonlyArray<[string, string, string]>>> = {
  'international-address': [
    ['hyphen chain after a German street word', 'Weg 1 ', 'A-'],
    ['lower-case hyphen chain', 'straße 1 ', 'a-'],
    ['mixed-script hyphen chain', 'Platz 2 ', 'Ωж-'],
    ['long capitalised word', 'Straße 3 ', 'Aa'],
    ['repeated street type', 'Calle 1 ', 'Calle '],
    ['repeated particles', 'Rua ', 'de '],
    ['repeated name words', 'Avenida ', 'Aa '],
    ['number-last chain', 'Baker Street 221B ', 'Aa Street 1, '],
    ['announced bare numbers', 'ship it to ', '1 Aa, '],
    ['whitespace run', 'Hauptstraße', ' '],
    ['dot chain', 'Str. 1 ', 'A.'],
  ],
  'street-address': [
    ['number and name words', '12 ', 'Aa '],
    ['lower-case hyphen word', '1 ', 'a-'],
    ['repeated streets', '', '1 Main St '],
    ['repeated suffixes', '12 Oak ', 'Street '],
    ['PO box words', '', 'po box '],
    ['whitespace run', '12 Oak', ' '],
    ['city words', '12 Oak Street, ', 'Aa '],
  ],
  email: [
    ['dot chain before @', '', 'a.'],
    ['many @', '', 'a@'],
    ['dotted domain chain', 'a@', 'a.'],
    ['spoken dots', 'x ', 'dot x '],
    ['spoken at and dot', '', 'a dot a at '],
    ['spoken at', 'alice.jones', ' at '],
    ['written domain chain', 'a.b at ', 'a.'],
    ['bracketed at', 'a', ' [at] a'],
    ['dashed at', 'a.b', ' -at- a'],
    ['foreign at and dot words', 'a ', 'arroba a punto '],
    ['spaced dots after @', 'a@a', ' . a'],
    ['URL-escaped @', 'a', '%40a'],
    ['HTML-entity @', 'a', '&#64;a'],
    ['unclosed inline tags', 'a', '<span a'],
    ['unclosed comments', 'a', '<!--'],
    ['spelled letters between many @', '', 'a @ '],
    ['spelled letters and spoken at', 'a ', 'b at '],
    ['spelled domain chain after @', 'a b @ ', 'c . '],
    ['hyphen-spelled chain after @', 'a-b@', 'c-'],
    ['spelled run before one @', '', 'a '],
  ],
  phone: [
    ['spaced digits', 'call ', '1 '],
    ['dashed digits', 'phone ', '1-'],
    ['dotted digits', 'tel ', '1.'],
    ['two-digit groups', 'call ', '12 '],
    ['bracketed groups', 'call ', '(12) '],
    ['plus groups', 'call ', '+1 '],
    ['digit run', 'call ', '1'],
    ['NANP-plausible groups', '', '23 '],
    ['phone word before every group', '', 'call 23 45 67 89 12 '],
    ['markdown marks', 'call ', '**1** '],
    ['spaced plus', 'call ', '+ 1 '],
    ['slashed groups', 'call ', '12/'],
    ['JSON escapes', 'call ', '\\u0031 '],
    ['URL-escaped spaces', 'call ', '1%20'],
    ['inline tags between digits', 'call ', '1<b>'],
    ['symbol-joined groups', 'phone ', '415★'],
    ['doubled-symbol groups', 'phone ', '12##'],
    ['percent-joined groups', 'phone ', '20%'],
  ],
  'credit-card': [
    ['card groups', '', '4111 '],
    ['slashed digits', '', '1/'],
    ['dashed card groups', '', '4111-'],
    ['plus-joined groups', 'card ', '4111+'],
    ['symbol-joined card groups', 'card ', '4111★'],
    ['pairs near a card word', 'card ', '41 '],
  ],
  ssn: [
    ['ssn-shaped chain', '', '123-45-'],
    ['ssn context digits', 'ssn ', '1 '],
    ['repeated keyword', '', 'ssn 1 '],
  ],
  'ip-address': [
    ['colon run', '', '::'],
    ['spaced double colons', '', ':: '],
    ['hex and colon', '', 'a1:'],
    ['dot run after a colon', ':', '.'],
    ['dotted numbers', '', '1.1.'],
    ['defanged dots', '', '1[.]'],
  ],
  'date-of-birth': [
    ['numeric dates', 'born ', '1/1/ '],
    ['month words', 'dob ', 'March 1 '],
    ['repeated keyword', '', 'born '],
    ['ISO chain', 'birthday ', '2000-1-'],
    ['month and ordinal words', 'born ', 'July fourth '],
    ['ordinal of month words', 'born ', 'the fourth of July '],
    ['year words', 'born July fourth ', 'nineteen '],
    ['speaker labels between date parts', 'born July 4,', '\ncustomer: '],
  ],
  iban: [
    ['IBAN blocks', 'IBAN ', 'GB82 '],
    ['long IBAN word', 'GB82', 'A'],
    ['dashed blocks', '', 'DE89-'],
  ],
  'spoken-number': [
    ['spoken digits', '', 'four '],
    ['oh and one', '', 'one oh '],
    ['fillers', 'one ', 'uh '],
    ['double words', '', 'double '],
    ['Unicode digits', '', '٣ '],
    ['fullwidth digits', '', '１ '],
    ['tab-separated digits', '', '1\t'],
    ['en-dash digits', '', '1\u2013'],
    ['invisible marks between digits', '', '1\u200b\u0301'],
    ['plus before short runs', '', 'plus four four '],
    ['trunk zeros', '', 'zero six '],
  ],
};

export const ADVERSARIAL_CASES: readonly AdversarialCase[] = Object.entries(UNITS).flatMap(
  ([detector, cases]) =>
    cases.map(([name, prefix, unit]) => ({
      detector: detector as DetectorName,
      name,
      prefix,
      unit,
    })),
);

/** The case's text at `bytes` UTF-16 units. */
export function adversarialText(c: AdversarialCase, bytes: number): string {
  return adversarial(c.unit, bytes, c.prefix);
}
