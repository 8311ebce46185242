import { detectCreditCards } from './detectors/credit-card.detector';
import { detectDatesOfBirth } from './detectors/date-of-birth.detector';
import type { DetectFn } from './detectors/detector';
import { detectEmails } from './detectors/email.detector';
import { detectIbans } from './detectors/iban.detector';
import { detectInternationalAddresses } from './detectors/international-address.detector';
import { detectIpAddresses } from './detectors/ip-address.detector';
import { detectPhones } from './detectors/phone.detector';
import { detectSpokenNumbers } from './detectors/spoken-number.detector';
import { detectSsns } from './detectors/ssn.detector';
import { detectStreetAddresses } from './detectors/street-address.detector';
import type { EntityType } from './entity-types';

/** The detectors of `Redactor`, by name (benchmarks and adversarial cases use the names). */
export type DetectorName =
  | 'email'
  | 'iban'
  | 'credit-card'
  | 'ssn'
  | 'phone'
  | 'ip-address'
  | 'street-address'
  | 'international-address'
  | 'date-of-birth'
  | 'spoken-number';

export interface DetectorEntry {
  name: DetectorName;
  types: readonly EntityType[];
  detect: DetectFn;
  /** Needs at least one ASCII digit in the text to find anything. */
  needsDigit: boolean;
}

/** Every detector, in the order `Redactor` runs them. */
export const DETECTORS: readonly DetectorEntry[] = [
  { name: 'email', types: ['EMAIL'], detect: detectEmails, needsDigit: false },
  { name: 'iban', types: ['IBAN'], detect: detectIbans, needsDigit: true },
  { name: 'credit-card', types: ['CREDIT_CARD'], detect: detectCreditCards, needsDigit: true },
  { name: 'ssn', types: ['US_SSN'], detect: detectSsns, needsDigit: true },
  { name: 'phone', types: ['PHONE'], detect: detectPhones, needsDigit: true },
  // Not gated on digits: the unspecified address `::` has none.
  { name: 'ip-address', types: ['IP_ADDRESS'], detect: detectIpAddresses, needsDigit: false },
  {
    name: 'street-address',
    types: ['STREET_ADDRESS'],
    detect: detectStreetAddresses,
    needsDigit: true,
  },
  {
    name: 'international-address',
    types: ['STREET_ADDRESS'],
    detect: detectInternationalAddresses,
    needsDigit: true,
  },
  // Not gated on digits: a date of birth may be said in words ("July fourth").
  {
    name: 'date-of-birth',
    types: ['DATE_OF_BIRTH'],
    detect: detectDatesOfBirth,
    needsDigit: false,
  },
  {
    name: 'spoken-number',
    types: ['CREDIT_CARD', 'US_SSN', 'PHONE'],
    detect: detectSpokenNumbers,
    needsDigit: false,
  },
];
