/**
 * The values the hostile-variant suites hide (`hostile-variants.ts`), each in a sentence that
 * carries it: a phone of three regions, a card, an SSN, an IBAN, an e-mail, an IP address and
 * a date of birth.
 */
import type { EntityType } from './entity-types';

/** A value inside the sentence that carries it (`{}` marks where). */
export interface HostileValue {
  name: string;
  type: EntityType;
  sentence: string;
  value: string;
  /** A phone's international form, for the URI and "+" variants. */
  intl?: string;
}

export const HOSTILE_VALUES: readonly HostileValue[] = [
  {
    name: 'US phone',
    type: 'PHONE',
    sentence: 'call me at {} tonight',
    value: '415 555 2671',
    intl: '+1 415 555 2671',
  },
  {
    name: 'UK phone',
    type: 'PHONE',
    sentence: 'my mobile is {} now',
    value: '+44 20 7946 0958',
    intl: '+44 20 7946 0958',
  },
  {
    name: 'FR phone',
    type: 'PHONE',
    sentence: 'appelle-moi au {} ce soir',
    value: '06 12 34 56 78',
    intl: '+33 6 12 34 56 78',
  },
  {
    name: 'card',
    type: 'CREDIT_CARD',
    sentence: 'card {} expires soon',
    value: '4111 1111 1111 1111',
  },
  { name: 'SSN', type: 'US_SSN', sentence: 'my ssn is {} thanks', value: '536-22-1234' },
  {
    name: 'IBAN',
    type: 'IBAN',
    sentence: 'wire it to {} please',
    value: 'DE89 3704 0044 0532 0130 00',
  },
  {
    name: 'e-mail',
    type: 'EMAIL',
    sentence: 'write to {} today',
    value: 'alice.jones@example.com',
  },
  { name: 'IP', type: 'IP_ADDRESS', sentence: 'logged in from {} yesterday', value: '10.20.30.40' },
  {
    name: 'date of birth',
    type: 'DATE_OF_BIRTH',
    sentence: 'I was born on {} in Ohio',
    value: 'July 4, 1985',
  },
];
