/**
 * A seeded generator of hostile ways to write a value we redact: what an attacker tries to
 * slip a phone, card, SSN, IBAN, e-mail or IP address past the detectors while a person (or
 * a browser, a JSON parser, a mail client) still reads it. Used by the unit property suite
 * and the e2e bypass suite; every variant keeps track of where the value's own letters and
 * digits are, so a test can check that each of them is masked.
 */
import type { EntityType } from './entity-types';
import type { HostileValue } from './hostile-values';

/** A piece of a variant; `secret` pieces are the value's own letters and digits. */
export interface Piece {
  text: string;
  secret: boolean;
}

type Random = () => number;
const pick = <T>(r: Random, items: readonly T[]): T => items[Math.floor(r() * items.length)];
const isSecret = (c: string): boolean => /[A-Za-z0-9]/.test(c);
const pieces = (value: string): Piece[] =>
  [...value].map((c) => ({ text: c, secret: isSecret(c) }));
const hasLetters = (v: HostileValue): boolean => /[A-Za-z]/.test(v.value);
const grouped = (v: HostileValue): boolean => / |-/.test(v.value);
const DIGIT_TYPES: ReadonlySet<EntityType> = new Set(['PHONE', 'CREDIT_CARD', 'US_SSN']);

/** Each character of `ps` rewritten by `edit` (secret or not) with probability `p`. */
function rewrite(ps: Piece[], r: Random, p: number, edit: (c: string) => string): Piece[] {
  return ps.map((q) => (r() < p ? { text: edit(q.text), secret: q.secret } : q));
}

// prettier-ignore
const SEPARATORS = ['.', '/', '\u2013', '\u2014', '\u00a0', '\u2009', '\u202f', '\u3000', '\t',
  '\n', ' - ', '\u2011', '_', '  '];
/** Symbols of every Unicode punctuation and symbol category, and the replacement character. */
// prettier-ignore
const SYMBOL_SEPARATORS = ['\u2605', '#', '=', '\ufffd', '|', '!', '?', '$', '%', '^', ';', '\u00a7',
  '\u00a4', '\u00bb', '\u2192', '\u25cf', '\u2713', '\u00b0', '\u30fb', '\u3001', '\u{1f525}', '\ue000'];
/** Digit blocks by first code point of 0: fullwidth, mathematical, and other scripts. */
// prettier-ignore
const DIGIT_ZEROS = [0xff10, 0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x0660, 0x06f0, 0x0966,
  0x09e6, 0x0e50, 0x1040];
/** Letter blocks by [capital A, small a]: fullwidth, mathematical bold, sans, monospace, circled. */
// prettier-ignore
const LETTER_AS: ReadonlyArray<readonly [number, number]> = [[0xff21, 0xff41], [0x1d400, 0x1d41a],
  [0x1d5a0, 0x1d5ba], [0x1d670, 0x1d68a], [0x24b6, 0x24d0]];
/** Cyrillic letters drawn like Latin ones. */
// prettier-ignore
const HOMOGLYPHS: Readonly<Record<string, string>> = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с',
  y: 'у', x: 'х', s: 'ѕ', i: 'і', j: 'ј', A: 'А', E: 'Е', O: 'О', B: 'В' };
const INLINE_TAGS = ['<b>', '</b>', '<span class="x">', '</span>', '<!-- -->', '<wbr>', '<i></i>'];
/** Tags whose attributes (or a comment whose words) may hold a value: kept for a first reading. */
// prettier-ignore
const HOLDING_TAGS = [`<span class='a b'>`, '</span>', '<b title="x y">', '<!-- a b -->',
  '<span data-n="7">', '<i class="c d"></i>', '<a href="mailto:x@y.z">', '<font face="A B">'];
const EMPHASIS = ['**', '__', '~~', '`', '*', '_'];
const NAMED: Readonly<Record<string, string>> = { '@': '&commat;', '.': '&period;', ' ': '&nbsp;' };
// prettier-ignore
const AT_FORMS = [' AT ', ' (at) ', ' [at] ', ' <at> ', ' -at- ', '_at_', ' at sign ', ' arroba ',
  ' arobase ', '{at}', '&#64;', '%40', '\\u0040', ' @ ', '＠', '\ufe6b'];
// prettier-ignore
const DOT_FORMS = [' DOT ', ' (dot) ', ' [dot] ', ' <dot> ', '-dot-', ' punto ', ' point ', '[.]',
  '(.)', '&#46;', '%2E', '\u3002', '\u00b7'];
// prettier-ignore
const INVISIBLE = ['\u200b', '\u200e', '\u200f', '\u202a', '\u202c', '\u202e', '\u2061', '\u2066',
  '\u2069', '\u00ad', '\ufeff', '\u0301', '\u0338', '\u{e0041}'];
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

const utf8Escape = (c: string): string =>
  [...Buffer.from(c, 'utf8')]
    .map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');

/** Inserts `make()` at one to three random boundaries strictly inside the value. */
function insertInside(ps: Piece[], r: Random, make: () => string): Piece[] {
  const out = [...ps];
  const count = 1 + Math.floor(r() * 3);
  for (let k = 0; k < count; k++) {
    const at = 1 + Math.floor(r() * (out.length - 1));
    out.splice(at, 0, { text: make(), secret: false });
  }
  return out;
}

/** Digit groups of a grouped value, each rewritten by `edit`, joined by single spaces. */
function regroup(v: HostileValue, edit: (group: string, k: number) => Piece[]): Piece[] {
  return v.value
    .split(/[ -]/)
    .flatMap((g, k) => [...(k > 0 ? [{ text: ' ', secret: false }] : []), ...edit(g, k)]);
}

/**
 * An address dictated letter by letter: one separator between letters ("a l i c e",
 * "a-l-i-c-e", "a.l.i.c.e"), its "@" and dots written or said.
 */
function spelledOut(value: string, r: Random): Piece[] {
  const sep = pick(r, [' ', ' ', '-', '.', '  ']);
  const at = pick(r, sep === ' ' || sep === '  ' ? [' @ ', ' at ', ' (at) '] : ['@', ` at `]);
  const dot = sep === '.' ? '.' : pick(r, sep === '-' ? ['.', ' dot '] : [' . ', ' dot ']);
  const out: Piece[] = [];
  for (const c of value) {
    const last = out[out.length - 1];
    const glue = c === '@' ? at : c === '.' ? dot : undefined;
    if (glue !== undefined) {
      out.push({ text: glue, secret: false });
    } else {
      if (last?.secret) {
        out.push({ text: sep, secret: false });
      }
      out.push({ text: c, secret: isSecret(c) });
    }
  }
  return out;
}

/** One class of bypass: which values it applies to and how it writes one. */
export interface HostileClass {
  name: string;
  applies: (v: HostileValue) => boolean;
  make: (v: HostileValue, r: Random) => Piece[];
}

export const HOSTILE_CLASSES: readonly HostileClass[] = [
  {
    name: 'separators (dots, slashes, dashes, NBSP, thin and ideographic spaces, tabs, newlines)',
    // A written date joined by dots or dashes ("July.4,.1985") is no date format anyone reads.
    applies: (v) => grouped(v) && v.type !== 'DATE_OF_BIRTH',
    make: (v, r) => {
      const sep = pick(r, SEPARATORS);
      return pieces(v.value).map((q) => (/[ -]/.test(q.text) ? { text: sep, secret: false } : q));
    },
  },
  {
    name: 'symbols between digit groups (★, #, =, U+FFFD, emoji, any punctuation, doubled)',
    // Digit values only: the IBAN's letters and a date's words are no digit groups.
    applies: (v) => grouped(v) && DIGIT_TYPES.has(v.type),
    make: (v, r) => {
      const one = pick(r, SYMBOL_SEPARATORS);
      const sep = pick(r, [one, one + one, ` ${one} `]);
      return pieces(v.value).map((q) => (/[ -]/.test(q.text) ? { text: sep, secret: false } : q));
    },
  },
  {
    name: 'digits in fullwidth, mathematical and other scripts',
    applies: () => true,
    make: (v, r) =>
      rewrite(pieces(v.value), r, 0.7, (c) =>
        /\d/.test(c) ? String.fromCodePoint(pick(r, DIGIT_ZEROS) + Number(c)) : c,
      ),
  },
  {
    name: 'letters in fullwidth, mathematical, circled and Cyrillic forms',
    applies: hasLetters,
    make: (v, r) =>
      rewrite(pieces(v.value), r, 0.7, (c) => {
        if (!/[A-Za-z]/.test(c)) {
          return c;
        }
        if (r() < 0.3 && HOMOGLYPHS[c]) {
          return HOMOGLYPHS[c];
        }
        const [upper, lower] = pick(r, LETTER_AS);
        const small = c >= 'a';
        return String.fromCodePoint((small ? lower : upper) + c.charCodeAt(0) - (small ? 97 : 65));
      }),
  },
  {
    name: 'inline HTML tags and comments inside the value',
    applies: () => true,
    make: (v, r) => insertInside(pieces(v.value), r, () => pick(r, INLINE_TAGS)),
  },
  {
    name: 'inline tags with spaced, quoted or digit attributes, and comments with words',
    applies: () => true,
    make: (v, r) => insertInside(pieces(v.value), r, () => pick(r, HOLDING_TAGS)),
  },
  {
    name: 'markdown emphasis and code marks around digit groups',
    applies: (v) => grouped(v) && !hasLetters(v),
    make: (v, r) =>
      regroup(v, (g) => {
        const mark = pick(r, EMPHASIS);
        return [{ text: mark, secret: false }, ...pieces(g), { text: mark, secret: false }];
      }),
  },
  {
    name: 'URL-encoded characters (%40, %20, UTF-8 sequences)',
    applies: () => true,
    make: (v, r) => rewrite(pieces(v.value), r, 0.5, utf8Escape),
  },
  {
    name: 'HTML character references (&#64;, &#x34;, &commat;, &nbsp;)',
    applies: () => true,
    make: (v, r) =>
      rewrite(pieces(v.value), r, 0.5, (c) => {
        const form = Math.floor(r() * 3);
        const cp = c.codePointAt(0) ?? 0;
        return form === 0 && NAMED[c]
          ? NAMED[c]
          : form === 1
            ? `&#x${cp.toString(16)};`
            : `&#${cp};`;
      }),
  },
  {
    name: 'JSON escapes (\\u0040, \\u0034)',
    applies: () => true,
    make: (v, r) =>
      rewrite(
        pieces(v.value),
        r,
        0.5,
        (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
      ),
  },
  {
    name: 'e-mail "@" and dots as words, brackets and look-alikes, in several languages',
    applies: (v) => v.type === 'EMAIL',
    make: (v, r) => {
      const at = v.value.indexOf('@');
      return pieces(v.value).map((q, i) => {
        if (i === at) {
          return { text: pick(r, AT_FORMS), secret: false };
        }
        return q.text === '.' && i > at ? { text: pick(r, DOT_FORMS), secret: false } : q;
      });
    },
  },
  {
    name: 'defanged dots ([.], (.), {.})',
    applies: (v) => v.value.includes('.'),
    make: (v, r) =>
      pieces(v.value).map((q) =>
        q.text === '.' ? { text: pick(r, ['[.]', '(.)', '{.}']), secret: false } : q,
      ),
  },
  {
    name: 'digits spelled out, mixed with numerals',
    // National numbers of other regions too: their trunk "zero" or a spoken "+ four four"
    // is masked with the rest of the run.
    applies: (v) => DIGIT_TYPES.has(v.type),
    make: (v, r) =>
      regroup(v, (g, k) => {
        const spoken = k === 0 || r() < 0.5;
        const text = spoken
          ? [...g].map((d) => (/\d/.test(d) ? WORDS[Number(d)] : d)).join(' ')
          : g;
        return [{ text, secret: true }];
      }),
  },
  {
    name: 'e-mail spelled out letter by letter (spaces, hyphens or dots between letters)',
    applies: (v) => v.type === 'EMAIL',
    make: (v, r) => spelledOut(v.value, r),
  },
  {
    name: "a date of birth split over a line break or a window's turn break",
    applies: (v) => v.type === 'DATE_OF_BIRTH',
    make: (v, r) => {
      const gap = pick(r, ['\n', ' \n', '\ncustomer: ', '\nCustomer:  ', '\nagent:']);
      const at = pick(r, [v.value.indexOf(' '), v.value.lastIndexOf(' ')]);
      const ps = pieces(v.value);
      return [...ps.slice(0, at), { text: gap, secret: false }, ...ps.slice(at + 1)];
    },
  },
  {
    name: 'a date of birth said in words (ordinal day, year in digits or words)',
    applies: (v) => v.type === 'DATE_OF_BIRTH',
    make: (_v, r) => {
      const year = pick(r, ['1985', 'nineteen eighty five', 'nineteen eighty-five']);
      const secret = (text: string): Piece => ({ text, secret: true });
      const plain = (text: string): Piece => ({ text, secret: false });
      return pick(r, [
        [secret('July'), plain(' '), secret('fourth'), plain(', '), secret(year)],
        [secret('July'), plain(' the '), secret('fourth'), plain(' '), secret(year)],
        [secret('fourth'), plain(' of '), secret('July'), plain(', '), secret(year)],
      ]);
    },
  },
  {
    name: 'bidi, format characters and combining marks',
    applies: () => true,
    make: (v, r) => insertInside(pieces(v.value), r, () => pick(r, INVISIBLE)),
  },
  {
    name: 'tel: and mailto: URIs, a spaced leading "+"',
    applies: (v) => v.type === 'PHONE' || v.type === 'EMAIL',
    make: (v, r) => {
      const ps = pieces(v.value);
      if (v.type === 'EMAIL') {
        const at = pick(r, ['@', '%40']);
        return [
          { text: 'mailto:', secret: false },
          ...ps.map((q) => (q.text === '@' ? { text: at, secret: false } : q)),
        ];
      }
      const intl = v.intl ?? v.value;
      const form = pick(r, ['tel:', 'tel:%2B', '+ ']);
      const digits = (form === '+ ' ? intl.slice(1) : intl.replace(/\D/g, '')).split('');
      const lead = form === 'tel:' ? 'tel:+' : form;
      return [
        { text: lead, secret: false },
        ...digits.map((c) => ({ text: c, secret: isSecret(c) })),
      ];
    },
  },
];

/** A variant in its sentence: the text, and the `[start, end)` of each secret piece. */
export interface Variant {
  text: string;
  secrets: Array<[number, number]>;
}

/** Writes `v` the way `cls` hides it, inside its sentence. */
export function hostileVariant(cls: HostileClass, v: HostileValue, r: Random): Variant {
  const [before, after] = v.sentence.split('{}');
  let text = before;
  const secrets: Array<[number, number]> = [];
  for (const piece of cls.make(v, r)) {
    if (piece.secret) {
      secrets.push([text.length, text.length + piece.text.length]);
    }
    text += piece.text;
  }
  return { text: text + after, secrets };
}

/** The secret spans of `variant` that no entity in `masked` covers: what leaked. */
export function leaks(
  variant: Variant,
  masked: ReadonlyArray<{ start: number; end: number }>,
): string[] {
  return variant.secrets
    .filter(([s, e]) => !masked.some((m) => m.start <= s && m.end >= e))
    .map(([s, e]) => variant.text.slice(s, e));
}
