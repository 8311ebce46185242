/**
 * Word lists for the US street-address grammar. Kept apart from the detector so the
 * grammar stays readable and the lists can grow without touching it.
 */

/** USPS street suffixes (Publication 28, the common subset), spelled out. */
// prettier-ignore
export const STREET_SUFFIXES = [
  'street', 'avenue', 'road', 'boulevard', 'lane', 'drive', 'court', 'place', 'terrace', 'way',
  'circle', 'parkway', 'highway', 'freeway', 'expressway', 'square', 'trail', 'loop', 'alley',
  'plaza', 'crescent', 'row', 'walk', 'path', 'pike', 'turnpike', 'center', 'point', 'ridge',
  'run', 'crossing', 'creek', 'heights', 'hill', 'park', 'grove', 'commons', 'mall', 'pass',
  'bend', 'close', 'cove', 'glen', 'green', 'landing', 'manor', 'mews', 'oval', 'view', 'vista',
  'station', 'causeway', 'esplanade', 'promenade',
  // Written after the name in English text too: "1 Waal Straat", "2, Sardar Patel Marg".
  'straat', 'strasse', 'marg',
] as const;

/** Their usual abbreviations; these own a following dot ("St."), full words do not. */
// prettier-ignore
export const SUFFIX_ABBREVIATIONS = [
  'st', 'ave', 'av', 'rd', 'blvd', 'ln', 'dr', 'ct', 'pl', 'ter', 'wy', 'cir', 'pkwy', 'hwy',
  'fwy', 'expy', 'sq', 'trl', 'aly', 'plz', 'cres', 'tpke', 'ctr', 'pt', 'rdg', 'xing', 'hts',
] as const;

/**
 * Suffixes that are also everyday words ("a 5 minute walk", "2 kids in the park"). After
 * one of these the match needs more evidence: a capitalised suffix, or a city, state or
 * ZIP following it.
 */
// prettier-ignore
export const AMBIGUOUS_SUFFIXES: ReadonlySet<string> = new Set([
  'drive', 'court', 'place', 'way', 'circle', 'square', 'trail', 'loop', 'row', 'walk', 'path',
  'center', 'point', 'pt', 'run', 'crossing', 'creek', 'heights', 'hill', 'park', 'grove',
  'commons', 'mall', 'pass', 'bend', 'close', 'cove', 'glen', 'green', 'landing', 'view',
  'vista', 'station', 'plaza', 'oval', 'manor', 'ridge', 'pike', 'alley', 'crescent', 'dr',
]);

/**
 * The ambiguous suffixes that are rarely anything but a street after a number of three or
 * more digits, even in lower case ("400 east remington drive"). The rest ("300 ships
 * landing", "200 cars park") stay ambiguous.
 */
// prettier-ignore
export const STREET_LIKE_AFTER_BIG_NUMBER: ReadonlySet<string> = new Set([
  'drive', 'dr', 'court', 'place', 'way', 'circle', 'trail', 'loop', 'plaza', 'square', 'alley',
  'crescent', 'pike', 'manor',
]);

/**
 * Words that cannot be part of a street name. A number followed by one of these is a
 * quantity in a sentence ("3 dogs in the park"), not a house number.
 */
// prettier-ignore
export const NOT_STREET_NAME_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'in', 'on', 'at', 'to', 'for', 'of', 'and', 'or', 'but', 'my', 'your',
  'his', 'her', 'its', 'our', 'their', 'is', 'are', 'was', 'were', 'be', 'been', 'it', 'this',
  'that', 'these', 'those', 'with', 'by', 'from', 'i', 'you', 'we', 'they', 'he', 'she', 'me',
  'us', 'them', 'have', 'has', 'had', 'do', 'does', 'did', 'will', 'would', 'can', 'could',
  'should', 'not', 'no', 'yes', 'so', 'if', 'then', 'than', 'as', 'about', 'into', 'over',
  'minute', 'minutes', 'hour', 'hours', 'day', 'days', 'week', 'weeks', 'month', 'months',
  'year', 'years', 'people', 'persons', 'guests', 'adults', 'kids', 'children', 'tickets',
  'seats', 'rooms', 'nights', 'times', 'miles', 'blocks', 'dollars', 'percent', 'am', 'pm',
  'person', 'adult', 'kid', 'child', 'ticket', 'seat', 'room', 'bed', 'beds', 'bedroom',
  'bedrooms', 'bathroom', 'bathrooms',
]);

/** USPS two-letter state and territory codes (matched case-sensitively: "IN", not "in"). */
// prettier-ignore
export const STATE_CODES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA',
  'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ',
  'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT',
  'VA', 'WA', 'WV', 'WI', 'WY', 'DC', 'PR', 'GU', 'VI', 'AS', 'MP',
] as const;

/** Full state names, capitalised as written in addresses. */
// prettier-ignore
export const STATE_NAMES = [
  'Alabama', 'Alaska', 'Arizona', 'Arkansas', 'California', 'Colorado', 'Connecticut',
  'Delaware', 'Florida', 'Georgia', 'Hawaii', 'Idaho', 'Illinois', 'Indiana', 'Iowa', 'Kansas',
  'Kentucky', 'Louisiana', 'Maine', 'Maryland', 'Massachusetts', 'Michigan', 'Minnesota',
  'Mississippi', 'Missouri', 'Montana', 'Nebraska', 'Nevada', 'New Hampshire', 'New Jersey',
  'New Mexico', 'New York', 'North Carolina', 'North Dakota', 'Ohio', 'Oklahoma', 'Oregon',
  'Pennsylvania', 'Rhode Island', 'South Carolina', 'South Dakota', 'Tennessee', 'Texas',
  'Utah', 'Vermont', 'Virginia', 'Washington', 'West Virginia', 'Wisconsin', 'Wyoming',
  'District of Columbia', 'Puerto Rico',
] as const;
