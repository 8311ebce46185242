import { allMatches } from '../all-matches';
import { BASE_CONFIDENCE } from '../entity-types';
import { linear } from '../linear';
import { AddressCues } from './address-cue';
import {
  AMBIGUOUS_SUFFIXES,
  NOT_STREET_NAME_WORDS,
  STATE_CODES,
  STATE_NAMES,
  STREET_LIKE_AFTER_BIG_NUMBER,
  STREET_SUFFIXES,
  SUFFIX_ABBREVIATIONS,
} from './address-vocabulary';
import type { Detection, DetectorOptions } from './detector';

/** Blanks between words, bounded so that no attempt reads a whitespace run to its end. */
const SP = String.raw`\s{1,8}`;
const SP0 = String.raw`\s{0,8}`;

const SUFFIX = `(?:${[...STREET_SUFFIXES, ...SUFFIX_ABBREVIATIONS].join('|')})`;
const ABBREVIATIONS: ReadonlySet<string> = new Set(SUFFIX_ABBREVIATIONS);
const STATE = `(?:${STATE_CODES.join('|')}|${STATE_NAMES.join('|')})`;
/**
 * "123", "123A", "100-15"; not glued to words, money, ids, decimals, thousands or times,
 * and not the tail of another number ("(415) 555-0134 Main St" holds a phone, not house
 * 555-0134). A dot, comma or colon right after a word is punctuation missing its space
 * ("Thanks.12 Oak Street", "Address:12 Oak Street"), so the number may follow it.
 */
const HOUSE = String.raw`(?=\d)(?<![\w$#/-]|(?:^|[^A-Za-z])[.,:]|\d[ .]|\)\s?)\d{1,6}(?:-\d{1,4})?[A-Za-z]?`;
/**
 * A street-name word: "Main", "O'Farrell", a short abbreviation ("Mt.", "E."), or an
 * ordinal ("44th"). Longer words may not end in a dot, which would be a sentence ending.
 */
const NAME_WORD = String.raw`(?:[A-Za-z][A-Za-z'-]{0,48}|[A-Za-z]{1,3}\.|\d{1,3}(?:st|nd|rd|th))`;

/**
 * House number, one to four name words (lazy, so the first suffix ends the street) and a
 * suffix; or a suffix-less name ("Broadway", "El Camino Real"). Every repetition is
 * bounded, words and gaps included, so a failed attempt reads a bounded window. Group 1 is a comma after the number, as written in
 * India and Malaysia ("12, Abdul Kalam Road"); in prose it more often ends a count, so
 * it needs a locality or an address cue.
 */
const CORE = linear(
  new RegExp(
    String.raw`${HOUSE}(,)?${SP}(?:((?:${NAME_WORD}${SP}){1,4}?)(${SUFFIX})|((?:(?:north|south|east|west)${SP})?(?:broadway|el${SP}camino${SP}real)))(?![\w'])`,
    'gi',
  ),
);
/** Literal pre-check, far cheaper than trying the PO box alternation at every word. */
const BOX_HINT = linear(/box/i);
const PO_BOX = linear(
  /\b(?:p\.?\s?o\.?\s{0,8}box|post\s{1,8}office\s{1,8}box)\s{0,8}#?\s{0,8}\d{1,8}(?![\w])/gi,
);

// The tail after the street, tried in order at the end of the match (sticky, so each is
// one anchored attempt). State codes are case-sensitive so "in" is never Indiana.
/** "Inner Circle Drive", "Broadway Street": a second suffix continues the street name. */
const NEXT_SUFFIX = linear(new RegExp(String.raw`${SP}(${SUFFIX})(?![\w'])`, 'iy'));
const POST_DIRECTION = linear(
  /\s{1,8}(?:(?:N|S|E|W|NE|NW|SE|SW)\.?|North|South|East|West|Northeast|Northwest|Southeast|Southwest)(?![\w])/y,
);
const UNIT = linear(
  /,?\s{0,8}(?:(?:apt|apartment|suite|ste|unit|rm|room|fl|floor|bldg|building)\b\.?\s{0,8}#?|#)\s{0,8}(?:[a-z]?\d[a-z0-9-]{0,5}|[a-z])(?![\w])/iy,
);
const CITY_WORD_ANY = String.raw`[A-Z][a-zA-Z'.-]{0,48}`;
const CITY = String.raw`${CITY_WORD_ANY}(?:${SP}${CITY_WORD_ANY}){0,2}`;
const ZIP = String.raw`\d{5}(?:-\d{4})?`;
/** A comma or a gap between the parts of a locality. */
const JOIN = String.raw`(?:,${SP0}|${SP})`;
const CITY_STATE = linear(
  new RegExp(String.raw`${JOIN}(${CITY})${JOIN}${STATE}(?:,?${SP}${ZIP})?(?![\w])`, 'y'),
);
/**
 * "…, springfield, il 62704": typed in lower case, city and state need the ZIP to confirm
 * them (a lower-case "in" or "me" is a word, not a state, unless a ZIP follows).
 */
const CITY_STATE_ZIP_ANY_CASE = linear(
  new RegExp(
    String.raw`${JOIN}([a-z][a-z'.-]{0,48}(?:${SP}[a-z][a-z'.-]{0,48}){0,2})${JOIN}${STATE},?${SP}${ZIP}(?![\w])`,
    'iy',
  ),
);
const STATE_ONLY = linear(new RegExp(String.raw`${JOIN}${STATE}(?:,?${SP}${ZIP})?(?![\w])`, 'y'));
const ZIP_ONLY = linear(new RegExp(String.raw`,?${SP}${ZIP}(?![\w])`, 'y'));
/**
 * Without a state to confirm it, a city must look like a name ("Brooklyn", not "DOB") and
 * end the clause: in "at 7 West 66th Street, Goldenson found…" the name starts a sentence.
 * As with street names, only a short word owns a final dot ("St. Louis"): "New Delhi."
 * ends the sentence.
 */
const CITY_WORD = String.raw`(?:[A-Z][a-z]{1,2}\.|[A-Z][a-z][a-zA-Z'-]{0,48}(?:\.[a-zA-Z][a-zA-Z'-]{0,48}){0,3})`;
const TITLE_CITY = String.raw`${CITY_WORD}(?:${SP}${CITY_WORD}){0,2}`;
const COMMA_CITY = linear(
  new RegExp(
    String.raw`,${SP0}(${TITLE_CITY})(?:,?${SP}${ZIP})?(?![\w])(?=${SP0}(?:[.,;:!?)"\n]|$))`,
    'y',
  ),
);
/** "…, London NW1 6XE": a UK postcode confirms the town before it. */
const UK_POSTCODE = String.raw`[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}`;
const CITY_POSTCODE_UK = linear(
  new RegExp(String.raw`(?:,${SP0}(${TITLE_CITY}),?${SP}|,?${SP})${UK_POSTCODE}(?![\w])`, 'y'),
);
const COUNTRY = linear(
  /,?\s{1,8}(?:USA|U\.S\.A\.|United States(?: of America)?|UK|United Kingdom)(?![\w])/y,
);
const WHITESPACE = /\s+/;
const CAPITALISED = /^[A-Z]/;
const YEAR = /^(?:18|19|20)\d\d$/;
const HOUSE_100_PLUS = /^\d{3}/;
const SINGLE_CAPITAL = /^[A-Z]$/;
// prettier-ignore
const DIRECTIONS: ReadonlySet<string> = new Set(['north', 'south', 'east', 'west', 'n', 's', 'e', 'w']);
const HOUSE_NUMBER = /^\d[\dA-Za-z-]*/;
const LOWERCASE_WORD = /^[a-z]/;

function stickyAt(re: RegExp, text: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(text);
}

/** Whether a city candidate is really the next sentence ("…, But then"). */
function plausibleCity(city: string): boolean {
  return !NOT_STREET_NAME_WORDS.has(city.split(WHITESPACE, 1)[0].toLowerCase());
}

/**
 * Extends a street at `end` with an optional post-direction, unit, "city, state ZIP" (in
 * any of the usual partial forms) and country. Returns the new end and whether a locality
 * was found, which is the extra evidence an ambiguous suffix needs.
 */
function extendTail(text: string, end: number): { end: number; locality: boolean } {
  let at = end;
  for (const re of [POST_DIRECTION, UNIT]) {
    const m = stickyAt(re, text, at);
    at += m ? m[0].length : 0;
  }
  let locality = false;
  for (const re of [
    CITY_STATE,
    CITY_STATE_ZIP_ANY_CASE,
    STATE_ONLY,
    ZIP_ONLY,
    CITY_POSTCODE_UK,
    COMMA_CITY,
  ]) {
    const m = stickyAt(re, text, at);
    if (m && (m[1] === undefined || plausibleCity(m[1]))) {
      at += m[0].length;
      locality = true;
      break;
    }
  }
  if (locality) {
    at += stickyAt(COUNTRY, text, at)?.[0].length ?? 0;
  }
  return { end: at, locality };
}

/**
 * Rejects sentence text that merely contains a number and a suffix-like word:
 * - a name word that is a function word or a counted noun ("3 dogs in the park"); a
 *   single capital letter is a name, though ("1400 A Street");
 * - a lowercase word before a capitalised one ("3 star hotel called Abbey Court"), since
 *   real street names are written in one case throughout (directions aside: "1639 north
 *   California Blvd");
 * - an ambiguous suffix ("5 minute walk") unless there is `evidence` (a city, state or
 *   ZIP follows, or an address was announced before it: "my address is 12 oak drive"), the
 *   street is capitalised, or the house number has three digits or more (counts in prose
 *   are small) and the suffix is street-like ({@link STREET_LIKE_AFTER_BIG_NUMBER}); a
 *   year for a number ("the 1978 Supreme Court") needs the evidence.
 * `evidence` is a callback because the announcement check costs a look back, and most
 * candidates are settled without it.
 */
function plausibleStreet(
  house: string,
  nameWords: string,
  suffix: string,
  evidence: () => boolean,
): boolean {
  let sawLowercase = false;
  let allCapitalised = true;
  for (const word of nameWords.trim().split(WHITESPACE)) {
    const lower = word.toLowerCase();
    if (NOT_STREET_NAME_WORDS.has(lower) && !SINGLE_CAPITAL.test(word)) {
      return false;
    }
    if (DIRECTIONS.has(lower)) {
      continue;
    }
    if (CAPITALISED.test(word)) {
      if (sawLowercase) {
        return false;
      }
    } else if (LOWERCASE_WORD.test(word)) {
      sawLowercase = true;
      allCapitalised = false;
    }
  }
  if (!AMBIGUOUS_SUFFIXES.has(suffix.toLowerCase())) {
    return true;
  }
  if (
    !YEAR.test(house) &&
    ((allCapitalised && CAPITALISED.test(suffix)) ||
      (HOUSE_100_PLUS.test(house) && STREET_LIKE_AFTER_BIG_NUMBER.has(suffix.toLowerCase())))
  ) {
    return true;
  }
  return evidence();
}

/** End of the street proper: a second suffix, and the dot an abbreviation owns. */
function streetEnd(text: string, end: number, suffix: string): number {
  let last = suffix;
  const next = stickyAt(NEXT_SUFFIX, text, end);
  if (next && CAPITALISED.test(next[1]) === CAPITALISED.test(suffix)) {
    end += next[0].length;
    last = next[1];
  }
  return text[end] === '.' && ABBREVIATIONS.has(last.toLowerCase()) ? end + 1 : end;
}

/**
 * US street addresses (number, name, suffix, then optional unit, city, state, ZIP) and PO
 * boxes. Number-last layouts ("Rue Gustave 6", "Baker Street 221B, London NW1 6XE") are
 * `detectInternationalAddresses`'s; named buildings and spelled-out house numbers
 * ("One Infinite Loop") are out of scope.
 */
export function detectStreetAddresses(
  text: string,
  _options: DetectorOptions,
  out: Detection[],
): void {
  const score = BASE_CONFIDENCE.STREET_ADDRESS;
  let cues: AddressCues | undefined; // built on first need: most texts never need it
  CORE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = CORE.exec(text)) !== null) {
    const [, comma, nameWords, streetSuffix, suffixless] = m;
    const suffix = streetSuffix ?? suffixless;
    const tail = extendTail(text, streetEnd(text, m.index + m[0].length, suffix));
    const house = HOUSE_NUMBER.exec(m[0])?.[0] ?? '';
    const at = m.index;
    const evidence = (): boolean => tail.locality || (cues ??= new AddressCues(text)).cuedAt(at);
    if (
      (suffixless !== undefined || plausibleStreet(house, nameWords, streetSuffix, evidence)) &&
      (comma === undefined || evidence())
    ) {
      out.push({ type: 'STREET_ADDRESS', start: m.index, end: tail.end, score });
      CORE.lastIndex = tail.end;
    } else {
      // A rejected match may hide a real street that starts inside it.
      CORE.lastIndex = m.index + 1;
    }
  }
  if (!BOX_HINT.test(text)) {
    return;
  }
  for (const box of allMatches(PO_BOX, text)) {
    const tail = extendTail(text, box.index + box[0].length);
    out.push({ type: 'STREET_ADDRESS', start: box.index, end: tail.end, score });
  }
}
