import { Metadata, type MetadataJson } from 'libphonenumber-js/core';
import { type CountryCode, getCountries, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import maxMetadata from 'libphonenumber-js/metadata.max.json';

/**
 * National-format phone numbers of any region ("09-7625400", "03-1234-5678",
 * "138 1234 5678", "01 23 45 67 89"). A support line hears callers from everywhere, so
 * the configured regions cannot be the limit; but "valid in some region" is weak evidence
 * (a random 7–10 digit string often is), so this path needs a phone word nearby and stays
 * clear of order numbers, dates, prices and quantities.
 */

/** What libphonenumber's numbering plan exposes at runtime (its typings list less). */
interface Plan {
  nationalNumberPattern(): string;
  possibleLengths(): number[];
  nationalPrefix(): string | undefined;
}

interface RegionCheck {
  region: CountryCode;
  pattern: RegExp;
  lengths: ReadonlySet<number>;
  prefix: string;
}

let checks: RegionCheck[] | undefined;

/**
 * Regions our callers come from most, tried first: a valid number stops the search at its
 * first region, so this order is what a real number costs (the rest follow, for recall).
 */
// prettier-ignore
const FIRST: readonly CountryCode[] = [
  'GB', 'FR', 'DE', 'ES', 'IT', 'PT', 'BR', 'MX', 'IN', 'IL', 'JP', 'CN', 'MY', 'AU', 'NL',
  'BE', 'CH', 'IE', 'PH', 'SG', 'HK', 'KR', 'AR', 'CO', 'ZA', 'NG', 'AE', 'TR', 'PL', 'SE',
];

/**
 * Per region: national number pattern, possible lengths and trunk prefix, compiled once.
 * They are a cheap necessary condition; full validation costs tens of microseconds per
 * region, so it only runs for the few regions that pass (keeps 245 regions affordable,
 * and adversarial digit runs linear with a small constant).
 */
function regionChecks(): RegionCheck[] {
  if (!checks) {
    // The JSON import is typed with plain strings where the API expects region codes.
    const metadata = new Metadata(maxMetadata as unknown as MetadataJson);
    const rest = getCountries().filter((r) => !FIRST.includes(r));
    checks = [...FIRST, ...rest].map((region) => {
      metadata.selectNumberingPlan(region);
      const plan = metadata.numberingPlan as unknown as Plan;
      return {
        region,
        pattern: new RegExp(`^(?:${plan.nationalNumberPattern()})$`),
        lengths: new Set(plan.possibleLengths()),
        prefix: plan.nationalPrefix() ?? '',
      };
    });
  }
  return checks;
}

function plausibleIn(check: RegionCheck, digits: string): boolean {
  const national =
    check.prefix && digits.startsWith(check.prefix) ? digits.slice(check.prefix.length) : digits;
  return check.lengths.has(national.length) && check.pattern.test(national);
}

/** True when `raw` (digits and separators) is a valid national number in any region. */
export function validInAnyRegion(raw: string, digits: string): boolean {
  for (const check of regionChecks()) {
    if (
      plausibleIn(check, digits) &&
      parsePhoneNumberFromString(raw, check.region)?.isValid() === true
    ) {
      return true;
    }
  }
  return false;
}

/**
 * Words that announce a phone number, in English and the languages of the regions we hear
 * most. "number" counts only when no other kind of number is named close by (see
 * {@link OTHER_NUMBER}).
 */
export const PHONE_CONTEXT =
  /\b(?:phone|phones|telephone|tel|tlf|tfno|mob|mobile|cell|cellphone|cellular|landline|fax|whats\s?app|viber|wechat|call|calling|ring|text|sms|dial|reach|reachable|contact|number|m[oó]vil|movil|tel[eé]fono|telefone|celular|contacto|contato|t[eé]l[eé]phone|portable|handy|telefon|rufnummer|numero|n[uú]mero|num[eé]ro|anruf|anrufen|ruf|rufen|erreichbar|appel|appelle|appelez|appeler|joindre|llamar|ll[aá]mame|chiamami|chiamare|cellulare|ligar|ligue)\b/i;

/** Kinds of number that are not phones; near one, "number" is not phone context. */
export const OTHER_NUMBER =
  /\b(?:order|orders|invoice|tracking|confirmation|reference|ref|booking|reservation|ticket|case|transaction|account|acct|serial|model|flight|room|sku|item|part|receipt|policy|claim|member|membership|customer|client|zip|postal|postcode|pin|code|passcode|otp|password|id|card|iban|ssn|social|passport|license|licence|vin|plate|parcel|shipment|package|pedido|factura|commande|bestellung|rechnung)\b/i;

/** A day-month-year or year-month-day date in any separator, spaces included. */
const SPACED_DATE =
  /^(?:(?:0?[1-9]|[12]\d|3[01])[ ./-](?:0?[1-9]|1[0-2])|(?:0?[1-9]|1[0-2])[ ./-](?:0?[1-9]|[12]\d|3[01]))[ ./-](?:19|20)\d\d$|^(?:19|20)\d\d[ ./-](?:0?[1-9]|1[0-2])[ ./-](?:0?[1-9]|[12]\d|3[01])$/;
/** Thousands grouping ("1 234 567"): a quantity or amount, not a phone. */
const THOUSANDS = /^[1-9]\d?(?: \d{3}){2,}$/;
/** A unit or currency right after the digits makes them an amount or a count. */
export const AMOUNT_AFTER =
  /^\s*(?:%|percent|eur|euros?|usd|dollars?|gbp|pounds?|yen|yuan|rmb|inr|rupees?|reais|pesos?|dirhams?|ringgit|rm|units?|items?|pcs|pieces|people|persons|times|views|visitors|km|kg|mb|gb|tb|kb|miles|points|votes|copies|users|customers|rows|records)\b/i;

/**
 * Placeholder digits: "123-456-7890" counting up from 1, or one digit repeated, end to
 * end. Some region always accepts them and nobody's number is one. Other runs
 * ("01 23 45 67 89", "98765 43210") are the example layouts people really copy their own
 * digits into, so they stay numbers.
 */
function isFiller(digits: string): boolean {
  const same = digits.split(digits[0]).length - 1 === digits.length;
  return same || '1234567890123456'.startsWith(digits);
}

/** Shapes that the context path refuses whatever region they are valid in. */
export function looksLikeOtherNumber(raw: string, digits: string, after: string): boolean {
  return (
    SPACED_DATE.test(raw) || THOUSANDS.test(raw) || AMOUNT_AFTER.test(after) || isFiller(digits)
  );
}
