import { Metadata, type MetadataJson } from 'libphonenumber-js/core';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js/max';
import maxMetadata from 'libphonenumber-js/metadata.max.json';

/**
 * Validity of a NANP national number (calling code 1: the US, Canada and the Caribbean)
 * without libphonenumber's parse. That parse tries each of the ~25 countries of the plan
 * and costs about 140 µs, which made digit runs such as "23 23 23 23 23 …" cost milliseconds
 * per kilobyte. This is the same test (`isValidNumber`: the country's number pattern, then
 * one of its number types with that type's lengths) on the same metadata, compiled once;
 * `nanp-plan.spec.ts` checks that both agree.
 */

interface TypeCheck {
  pattern: RegExp;
  lengths: ReadonlySet<number> | undefined;
}

interface CountryPlan {
  pattern: RegExp;
  /** Empty when the metadata holds no types: the number pattern decides alone. */
  types: TypeCheck[];
}

/** What libphonenumber's numbering plan exposes at runtime (its typings list less). */
interface Plan {
  nationalNumberPattern(): string;
  type(name: string): { pattern(): string; possibleLengths(): number[] | undefined } | undefined;
}

const TYPES = [
  'FIXED_LINE',
  'MOBILE',
  'PREMIUM_RATE',
  'TOLL_FREE',
  'SHARED_COST',
  'VOIP',
  'PERSONAL_NUMBER',
  'PAGER',
  'UAN',
  'VOICEMAIL',
];
const whole = (source: string): RegExp => new RegExp(`^(?:${source})$`);

let plans: CountryPlan[] | undefined;

function nanpPlans(): CountryPlan[] {
  if (!plans) {
    const metadata = new Metadata(maxMetadata as unknown as MetadataJson);
    plans = getCountries()
      .filter((c) => getCountryCallingCode(c) === '1')
      .map((country) => {
        metadata.selectNumberingPlan(country);
        const plan = metadata.numberingPlan as unknown as Plan;
        const types: TypeCheck[] = [];
        for (const name of TYPES) {
          const type = plan.type(name);
          // An empty pattern is a type folded into another (mobile = fixed line): no test.
          if (type?.pattern()) {
            const lengths = type.possibleLengths();
            types.push({ pattern: whole(type.pattern()), lengths: lengths && new Set(lengths) });
          }
        }
        return { pattern: whole(plan.nationalNumberPattern()), types };
      });
  }
  return plans;
}

function validIn(plan: CountryPlan, national: string): boolean {
  if (!plan.pattern.test(national)) {
    return false;
  }
  if (plan.types.length === 0) {
    return true;
  }
  return plan.types.some(
    (t) => (t.lengths === undefined || t.lengths.has(national.length)) && t.pattern.test(national),
  );
}

/**
 * Whether `digits` (ten, or eleven with the trunk prefix 1) are a valid number in some
 * country of the North American Numbering Plan.
 */
export function validNanp(digits: string): boolean {
  const national =
    digits.length === 10
      ? digits
      : digits.length === 11 && digits[0] === '1'
        ? digits.slice(1)
        : '';
  return national !== '' && nanpPlans().some((plan) => validIn(plan, national));
}
