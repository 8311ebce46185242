import { allMatches } from '../all-matches';
import { BASE_CONFIDENCE } from '../entity-types';
import { linear } from '../linear';
import { AddressCues } from './address-cue';
import { NOT_STREET_NAME_WORDS, STREET_SUFFIXES, SUFFIX_ABBREVIATIONS } from './address-vocabulary';
import type { Detection, DetectorOptions } from './detector';

/**
 * Street addresses outside the US grammar of {@link detectStreetAddresses}:
 * - street type first, number last: "Rua das Flores, 52 - Centro", "Calle Mayor 15",
 *   "Avenida Paulista, 1578", "C/ Alcalá 45, 28014 Madrid", "Via Roma 10";
 * - number, then a street type, then the name: "12 rue de la Paix", "4410 Via Lactea",
 *   "5 avenue Victor Hugo";
 * - German, Dutch and Nordic name-suffix compounds: "Hauptstraße 5", "Berliner Str. 12a",
 *   "Am Lindenweg 3", "Kerkstraat 12", "Storgatan 5";
 * - an English street type with the number after it, as written in Europe: "Baker Street
 *   221B, London NW1 6XE", "Oak Street 12, 10115 Berlin". The order is unusual enough in
 *   English prose ("Main Street 3 times") that it needs a postal code and town after it, or
 *   an address announcement before it;
 * - a number and a capitalised name with no street word at all, when an address is
 *   announced right before it ("I live at 4410 Lactea", "ship to 25 Kingsway").
 * Each may be followed by a neighbourhood, a postal code (ES/FR/DE/IT, BR, PT, UK) and a
 * city. Every repetition is bounded, words included (a name word is at most
 * {@link WORD_MAX} letters, a gap at most eight blanks), and no pattern starts inside a
 * hyphenated chain, so each attempt reads a bounded window and a scan is linear (see
 * `linear.ts`).
 */

/** Letters after a word's first: "Donaudampfschifffahrtsgesellschaftsstraße" fits. */
const WORD_MAX = 48;
/** Blanks between words: a bounded gap, so no attempt reads a run of whitespace to its end. */
const SP = String.raw`\s{1,8}`;
const SP0 = String.raw`\s{0,8}`;
/** Letters, apostrophes and hyphens of a name word after its first letter. */
const REST = String.raw`[\p{L}'’-]{0,${WORD_MAX}}`;

/** `calle` → `[cC][aA][lL][lL][eE]`: case-insensitive for one part of a pattern. */
const anyCase = (word: string): string =>
  [...word]
    .map((c) => (c.toLowerCase() !== c.toUpperCase() ? `[${c}${c.toUpperCase()}]` : c))
    .join('');
/** Street types that are never ordinary English words: any case. */
// prettier-ignore
const TYPE_ANY_CASE = `(?:${[
  'calle', 'avenida', 'avda', 'avenue', 'boulevard', 'rua', 'travessa', 'praça', 'praca', 'rodovia', 'rue', 'allée',
  'allee', 'impasse', 'quai', 'chemin', 'carrer', 'strada', 'viale', 'piazza', 'rambla',
].map(anyCase).join('|')}|${['c/', 'av.', 'r.', 'tv.', 'bd.'].map((w) => anyCase(w).replace('.', '\\.').replace('/', '\\/')).join('|')})`;
/** Street types that are also English words (via, place, route): capitalised only. */
const TYPE_CAPITALISED = String.raw`(?:Via|Vía|Place|Route|Cours|Plaza|Largo|Corso|Camino|Paseo|Pasaje|Ronda|Carrera|Estrada|Alameda|Boulevard|Avenue|Traverse)`;
const TYPE = `(?:${TYPE_ANY_CASE}|${TYPE_CAPITALISED})`;
/** A name word: capitalised, or one of the particles Romance and German names use. */
const PARTICLE = String.raw`(?:d[aeo]s?|del|della|di|du|des|la|las|los|le|les|von|der|y|e)`;
/** A word may end in a dot only as a short abbreviation ("Sta."), not a sentence end. */
const CAPITAL_WORD = String.raw`(?:\p{Lu}\p{L}{0,2}\.|\p{Lu}${REST})`;
const NAME_WORD = String.raw`(?:${CAPITAL_WORD}|${PARTICLE}|dell'|d'|l')`;
/** "Mayor", "das Flores", "de la Paix": up to two particles, then a capitalised word. */
const NAME = String.raw`(?:${PARTICLE}${SP}){0,2}${CAPITAL_WORD}(?:${SP}${NAME_WORD}){0,4}`;
/** "52", "15B", "12-14", "nº 52", "n. 52". */
const NUMBER = String.raw`(?:(?:n[º°o.]${SP0})?\d{1,5}(?:\s?[A-Za-z](?![\p{L}]))?(?:-\d{1,4})?)`;
const UK_POSTCODE = String.raw`[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}`;
/** ES/FR/DE/IT, BR, PT, NL ("1017 GC"), SE ("111 22"), CH/AT/BE/DK, UK; "D-10115" too. */
const POSTCODE = String.raw`(?:(?:[A-Z]{1,2}-)?\d{5}(?:-\d{3})?|\d{4}-\d{3}|\d{4}\s?[A-Z]{2}(?![\p{L}])|\d{3}\s\d{2}(?!\d)|\d{4}|${UK_POSTCODE})`;
const PLACE = String.raw`\p{Lu}${REST}(?:${SP}\p{Lu}${REST}){0,2}`;
/** Optional unit ("apto 12", "piso 3"), neighbourhood ("- Centro"), postal code, city. */
const TAIL =
  String.raw`(?:,?${SP0}(?:apto|apt|piso|andar|bloco|bl|porta|puerta|dpto|depto|esc|casa|flat)\.?${SP0}\d{1,4}[A-Za-z]?)?` +
  String.raw`(?:${SP0}[-,]${SP0}${PLACE})?(?:,?${SP0}${POSTCODE}(?:${SP}${PLACE})?|,${SP0}${PLACE})?`;

/** As in the US grammar: punctuation glued to a word ("Thanks.42 Wallaby") may precede it. */
const HOUSE = String.raw`(?<![\w$#/-]|(?:^|[^A-Za-z])[.,:])\d{1,5}(?:-\d{1,4})?[A-Za-z]?`;
/** Compound endings; the first group also ends lower-case names ({@link LOWER_COMPOUND}). */
const UNMISTAKABLE_SUFFIX = String.raw`(?:stra(?:ß|ss)e|straat|gatan|vägen|veien)`;
const GERMAN_SUFFIX = String.raw`(?:${UNMISTAKABLE_SUFFIX}|str\.|weg|platz|gasse|allee|damm|ufer|chaussee|laan|plein|gracht|vej|gade)`;
const COMPOUND_NUMBER = String.raw`${SP}\d{1,4}[a-z]?(?:-\d{1,4})?(?![\p{L}\d])${TAIL}`;
const GERMAN_WORD = String.raw`(?:Stra(?:ß|ss)e|Str\.|Weg|Platz|Gasse|Allee|Damm|Ufer|Chaussee)`;
/** A compound's letters and hyphens before its ending: bounded, so "A-A-A-…" ends early. */
const COMPOUND_REST = String.raw`[\p{L}-]{0,${WORD_MAX}}`;
/** Not glued to a letter or digit, nor to "letter-" (inside a hyphenated chain). */
const NOT_IN_CHAIN = String.raw`(?<![\p{L}\d]|[\p{L}\d]-)`;

const PATTERNS: readonly RegExp[] = [
  // Type first, number last.
  linear(
    new RegExp(
      String.raw`(?<![\p{L}\d])${TYPE}${SP}${NAME},?${SP0}${NUMBER}(?![\p{L}\d])${TAIL}`,
      'gu',
    ),
  ),
  // Number, type, name.
  linear(
    new RegExp(String.raw`${HOUSE}${SP}(?:(?:bis|ter)${SP})?${TYPE}${SP}${NAME}${TAIL}`, 'gu'),
  ),
  // German compounds and two-word forms. Not started inside a hyphen chain ("Karl-Marx-"
  // starts at "Karl"): each chain is tried once, not once per link.
  linear(
    new RegExp(
      String.raw`${NOT_IN_CHAIN}(?:(?:Am|An${SP}der|Im|In${SP}der|Auf${SP}der)${SP})?\p{Lu}${COMPOUND_REST}(?:${GERMAN_SUFFIX}|${SP}${GERMAN_WORD})${COMPOUND_NUMBER}`,
      'gu',
    ),
  ),
];
/**
 * "hauptstraße 12", typed in lower case: only the endings that are never English words.
 * Tried only when such an ending precedes a number ({@link NUMBER_AFTER_TYPE_HINT}), since
 * a pattern that starts at every lower-case word costs more than the rest of this detector.
 */
const LOWER_COMPOUND = linear(
  new RegExp(
    String.raw`${NOT_IN_CHAIN}\p{Ll}${COMPOUND_REST}${UNMISTAKABLE_SUFFIX}${COMPOUND_NUMBER}`,
    'gu',
  ),
);

/**
 * House number and capitalised name words, used only after an address announcement: tried
 * (sticky) where one ends, never across the text.
 */
const BARE = linear(
  new RegExp(
    String.raw`${HOUSE},?${SP}\p{Lu}${REST}(?:${SP}(?:${NAME_WORD})){0,3}(?![\p{L}\d])${TAIL}`,
    'uy',
  ),
);

/**
 * Name words, an English street type (any case) and the number: "Baker Street 221B". The
 * first name word may not be a word that opens a sentence ("Thanks Baker Street…" starts
 * at "Baker"). Group 1 is a confirming locality: a postal code and town, or a town and a
 * UK postcode; without it the match needs an announcement before it.
 */
const EN_SUFFIX = `(?:${[...STREET_SUFFIXES, ...SUFFIX_ABBREVIATIONS].map(anyCase).join('|')})`;
const SENTENCE_OPENER = String.raw`(?:I|The|And|But|Then|Please|Thanks|Thank|Okay|OK|Yes|No|My|Our|It|Its|At|On|To|In)`;
const EN_NAME_WORD = String.raw`(?!${SENTENCE_OPENER}\s)\p{Lu}${REST}`;
/** A four-digit postal code that reads as a year ("Main Street 5, 2019 Report") is not one. */
const LOCALITY = String.raw`,?${SP0}(?:(?!(?:19|20)\d\d\s)${POSTCODE}${SP}${PLACE}|(?:${PLACE},?${SP})?${UK_POSTCODE})(?![\p{L}\d])`;
/**
 * Literal pre-check for {@link NUMBER_LAST} and {@link LOWER_COMPOUND}: a street type
 * right before a number, which few texts hold. One scan for both, since each scan over
 * the text costs as much as the rest of this detector on most texts.
 */
const NUMBER_AFTER_TYPE_HINT = linear(
  new RegExp(
    String.raw`(?:\b(?:${[...STREET_SUFFIXES, ...SUFFIX_ABBREVIATIONS].join('|')})|${UNMISTAKABLE_SUFFIX})\.?,?${SP}\d`,
    'i',
  ),
);
const NUMBER_LAST = linear(
  new RegExp(
    String.raw`(?<![\p{L}\d'’-])${EN_NAME_WORD}(?:${SP}${EN_NAME_WORD}){0,2}${SP}${EN_SUFFIX}\.?,?${SP}\d{1,5}[A-Za-z]?(?:-\d{1,4})?(?![\p{L}\d]|[.:,]\d)(?:(${LOCALITY})|${TAIL})`,
    'gu',
  ),
);
/**
 * Literal pre-check, far cheaper than the Unicode patterns tried at every position: no
 * street type or German street word means none of {@link PATTERNS} can match.
 */
const TYPE_HINT = linear(
  /straat|gatan|v[äa]gen|veien|laan|plein|gracht|vej|gade|calle|avenida|avda|avenue|boulevard|rua|travessa|pra[çc]a|rodovia|rue|all[ée]e|impasse|quai|chemin|carrer|strada|viale|piazza|rambla|c\/|av\.|r\.|tv\.|bd\.|v[ií]a|place|route|cours|plaza|largo|corso|camino|paseo|pasaje|ronda|carrera|estrada|alameda|traverse|stra(?:ß|ss)e|str\.|weg|platz|gasse|allee|damm|ufer|chaussee/i,
);
/**
 * Words that begin the next clause, or make the number a date or a time; the function
 * words and counted nouns of {@link NOT_STREET_NAME_WORDS} ("5 People", "3 PM") too.
 */
const NOT_A_NAME =
  /^(?:I'm|Then|Please|Thanks|Thank|Okay|OK|Noon|Midnight|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day|January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Dollars?|Euros?|Pounds?)$/;

/** Street addresses in the Romance, German and UK layouts, and announced bare ones. */
export function detectInternationalAddresses(
  text: string,
  _options: DetectorOptions,
  out: Detection[],
): void {
  const score = BASE_CONFIDENCE.STREET_ADDRESS;
  if (TYPE_HINT.test(text)) {
    for (const pattern of PATTERNS) {
      for (const m of allMatches(pattern, text)) {
        out.push({ type: 'STREET_ADDRESS', start: m.index, end: m.index + m[0].length, score });
      }
    }
  }
  const cues = new AddressCues(text);
  if (NUMBER_AFTER_TYPE_HINT.test(text)) {
    for (const m of allMatches(LOWER_COMPOUND, text)) {
      out.push({ type: 'STREET_ADDRESS', start: m.index, end: m.index + m[0].length, score });
    }
    for (const m of allMatches(NUMBER_LAST, text)) {
      if (m[1] !== undefined || cues.announcedAt(m.index)) {
        out.push({ type: 'STREET_ADDRESS', start: m.index, end: m.index + m[0].length, score });
      }
    }
  }
  for (const at of cues.announcements()) {
    BARE.lastIndex = at;
    const m = BARE.exec(text);
    const firstWord = m?.[0].split(/[\s,]+/, 2)[1] ?? '';
    if (m && !NOT_A_NAME.test(firstWord) && !NOT_STREET_NAME_WORDS.has(firstWord.toLowerCase())) {
      out.push({ type: 'STREET_ADDRESS', start: at, end: at + m[0].length, score: score - 0.05 });
    }
  }
}
