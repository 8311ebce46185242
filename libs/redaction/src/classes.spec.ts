import type { EntityType } from './entity-types';
import { Redactor } from './redactor';

/**
 * One table per class of PII that a simple pattern misses, with the text that must
 * be masked (positives) and look-alikes that must stay (negatives). Positives name the
 * exact span; negatives expect nothing of the kinds listed.
 */
type Case = [text: string, type: EntityType, span: string];
type Negative = [text: string];

const NBSP = '\u00a0';
const THIN = '\u2009';
const ZW = '\u200b';

const POSITIVES: Record<string, Case[]> = {
  'international phone': [
    ['My Israeli number is 09-7625400', 'PHONE', '09-7625400'],
    ['call me on 03-1234-5678 tomorrow', 'PHONE', '03-1234-5678'],
    ['my cell: 138 1234 5678', 'PHONE', '138 1234 5678'],
    ['mobile 13812345678', 'PHONE', '13812345678'],
    ['mon numéro: 01 23 45 67 89', 'PHONE', '01 23 45 67 89'],
    ['phone 012-345 6789', 'PHONE', '012-345 6789'],
    ['my number is 98765 43210', 'PHONE', '98765 43210'],
    ['reach me at 0412 345 678', 'PHONE', '0412 345 678'],
    ['call me at 06 12 34 56 78', 'PHONE', '06 12 34 56 78'],
    ['you can call them at 21 2157-2895.', 'PHONE', '21 2157-2895'],
    ['their phone number is 020 7071 5029', 'PHONE', '020 7071 5029'],
    ['Tel: 030 1234567', 'PHONE', '030 1234567'],
  ],
  'street address (non-US)': [
    ['I live at Rua das Flores, 52 - Centro, ok', 'STREET_ADDRESS', 'Rua das Flores, 52 - Centro'],
    ['Calle Mayor 15, 28013 Madrid', 'STREET_ADDRESS', 'Calle Mayor 15, 28013 Madrid'],
    ['at Avenida Paulista, 1578 today', 'STREET_ADDRESS', 'Avenida Paulista, 1578'],
    ['send it to 4410 Via Lactea please', 'STREET_ADDRESS', '4410 Via Lactea'],
    ['12 rue de la Paix, 75002 Paris', 'STREET_ADDRESS', '12 rue de la Paix, 75002 Paris'],
    ['Hauptstraße 5, 10115 Berlin', 'STREET_ADDRESS', 'Hauptstraße 5, 10115 Berlin'],
    ['office at Berliner Str. 12a', 'STREET_ADDRESS', 'Berliner Str. 12a'],
    ['221B Baker Street, London NW1 6XE', 'STREET_ADDRESS', '221B Baker Street, London NW1 6XE'],
    ['Paseo de Gracia 43 is lovely', 'STREET_ADDRESS', 'Paseo de Gracia 43'],
    ['my address is 25 Kingsway', 'STREET_ADDRESS', '25 Kingsway'],
    ['Via Roma 10, 00184 Roma', 'STREET_ADDRESS', 'Via Roma 10, 00184 Roma'],
  ],
  'SSN (unusual layout near a keyword)': [
    ['social security number: 536221234', 'US_SSN', '536221234'],
    ['ssn 536 221 234', 'US_SSN', '536 221 234'],
    ['my ssn is 5362 21234', 'US_SSN', '5362 21234'],
    ['SSN 536-221234', 'US_SSN', '536-221234'],
    ['ssn 536.22.1234', 'US_SSN', '536.22.1234'],
    ['078.05.1123', 'US_SSN', '078.05.1123'],
    // Said to be an SSN: masked even out of the SSA's ranges, a sample or mixed-delimited.
    ['ssn 000-22-1234', 'US_SSN', '000-22-1234'],
    ['my ssn is 123456789', 'US_SSN', '123456789'],
    ['ssn 536-22 1234', 'US_SSN', '536-22 1234'],
  ],
  'IBAN with dashes': [
    ['IBAN DE89-3704-0044-0532-0130-00', 'IBAN', 'DE89-3704-0044-0532-0130-00'],
    ['to GB82-WEST-1234-5698-7654-32 please', 'IBAN', 'GB82-WEST-1234-5698-7654-32'],
  ],
  'email (IDN, punycode, spoken, obfuscated)': [
    ['mail josé@münchen.de now', 'EMAIL', 'josé@münchen.de'],
    ['write to user@xn--80ak6aa92e.xn--p1ai today', 'EMAIL', 'user@xn--80ak6aa92e.xn--p1ai'],
    ['admin@пример.рф ok', 'EMAIL', 'admin@пример.рф'],
    ['it is jane.smith at gmail dot com', 'EMAIL', 'jane.smith at gmail dot com'],
    [`mail jane${ZW}@example.com`, 'EMAIL', `jane${ZW}@example.com`],
    ['mail jane＠example.com', 'EMAIL', 'jane＠example.com'],
  ],
  'IP (CIDR, zone id, ::)': [
    ['net 10.0.0.0/8 ok', 'IP_ADDRESS', '10.0.0.0/8'],
    ['addr 2001:db8::/32 ok', 'IP_ADDRESS', '2001:db8::/32'],
    ['fe80::1%eth0 up', 'IP_ADDRESS', 'fe80::1%eth0'],
    ['::', 'IP_ADDRESS', '::'],
    ['bind to :: on port 80', 'IP_ADDRESS', '::'],
  ],
  'separator and Unicode bypass': [
    [
      'card ４１１１ １１１１ １１１１ １１１１ ok',
      'CREDIT_CARD',
      '４１１１ １１１１ １１１１ １１１１',
    ],
    ['ssn ٥٣٦-٢٢-١٢٣٤', 'US_SSN', '٥٣٦-٢٢-١٢٣٤'],
    [`call 415${NBSP}555${NBSP}0134`, 'PHONE', `415${NBSP}555${NBSP}0134`],
    [`call 415${THIN}555${THIN}0134`, 'PHONE', `415${THIN}555${THIN}0134`],
    ['call 415\u2011555\u20110134', 'PHONE', '415\u2011555\u20110134'],
    ['call 415\u2013555\u20130134', 'PHONE', '415\u2013555\u20130134'],
    ['call 415\t555\t0134', 'PHONE', '415\t555\t0134'],
    ['card 4111\n1111 1111 1111', 'CREDIT_CARD', '4111\n1111 1111 1111'],
    ['card 4111.1111.1111.1111', 'CREDIT_CARD', '4111.1111.1111.1111'],
    ['card 4111/1111/1111/1111', 'CREDIT_CARD', '4111/1111/1111/1111'],
    [`ssn 536${ZW}-22-1234`, 'US_SSN', `536${ZW}-22-1234`],
    // Spaced separators in a run of groups, and dot look-alikes between digits or labels.
    ['card 4111 - 1111 - 1111 - 1111', 'CREDIT_CARD', '4111 - 1111 - 1111 - 1111'],
    ['card 4111  /  1111 / 1111 / 1111', 'CREDIT_CARD', '4111  /  1111 / 1111 / 1111'],
    ['card 4111 .\n1111 . 1111 . 1111', 'CREDIT_CARD', '4111 .\n1111 . 1111 . 1111'],
    ['call 1 - 800 - 555 - 0199 now', 'PHONE', '1 - 800 - 555 - 0199'],
    ['ssn 536 - 22 - 1234', 'US_SSN', '536 - 22 - 1234'],
    // One spaced separator is prose: the house number stays its own.
    ['rated 4.2 - 1150 Northwest 9th Avenue', 'STREET_ADDRESS', '1150 Northwest 9th Avenue'],
    [
      'card 4111\u00b71111\u00b71111\u00b71111',
      'CREDIT_CARD',
      '4111\u00b71111\u00b71111\u00b71111',
    ],
    ['call 415\u2022555\u20220134', 'PHONE', '415\u2022555\u20220134'],
    ['mail alice@example\u3002com', 'EMAIL', 'alice@example\u3002com'],
    // Keywords spelled with Cyrillic or Greek look-alikes, and a hyphen bullet.
    ['my \u0405\u0405N is 536221234', 'US_SSN', '536221234'],
    ['s\u043ecial security 536221234', 'US_SSN', '536221234'],
    ['alice \u0430t gmail d\u043et com', 'EMAIL', 'alice \u0430t gmail d\u043et com'],
    [
      'card 4111\u20431111\u20431111\u20431111',
      'CREDIT_CARD',
      '4111\u20431111\u20431111\u20431111',
    ],
    // A number split over two turns of one window ("sender: text" lines).
    [
      'customer: my card is 4111 1111\ncustomer: 1111 1111',
      'CREDIT_CARD',
      '4111 1111\ncustomer: 1111 1111',
    ],
    ['customer: ssn 536-22-\ncustomer: 1234', 'US_SSN', '536-22-\ncustomer: 1234'],
    ['customer: call me on 415 555\ncustomer: 0134', 'PHONE', '415 555\ncustomer: 0134'],
    [
      'customer: my email is alice.jones\ncustomer: @example.com',
      'EMAIL',
      'alice.jones\ncustomer: @example.com',
    ],
    ['customer: it is jroe@\nagent: example.org ok', 'EMAIL', 'jroe@\nagent: example.org'],
    ['mail alice@example\u2024com', 'EMAIL', 'alice@example\u2024com'],
  ],
};

const NEGATIVES: Record<string, Negative[]> = {
  'international phone': [
    ['order number is 0123456789'],
    ['my number of visitors was 1 234 567'],
    ['call me on 12 03 2024'],
    ['call 123-456-7890 to test'],
    ['phone bill total 12 345 678 euros'],
    ['tracking number for your call: 1Z999AA10123456784'],
    ['the call lasted 10:30 to 11:45'],
    ['call about invoice 0412345678'],
  ],
  'street address (non-US)': [
    ['sent via DHL 24 hours ago'],
    ['During 5 days we waited'],
    ['I have 3 Kids'],
    ['Flight 24 Paris was late'],
    ['the rue is 5 Euros'],
    ['rated at 4.2 - it costs 1150 Euros'],
  ],
  'SSN (unusual layout near a keyword)': [['order 536221234'], ['order 000-22-1234']],
  'IBAN with dashes': [['ref DE89-3704-0044-0532-0130-01']],
  'email (IDN, punycode, spoken, obfuscated)': [
    ['user@localhost is default'],
    ['look at the dot over the i'],
  ],
  'IP (CIDR, zone id, ::)': [['std::vector and a :: b'], ['ratio 1/2 of 10 people']],
  'separator and Unicode bypass': [
    ['years 1998\u20132002 ok'],
    ['(973\u20131048 CE)'],
    ['price 1\u00a0234,56 €'],
    ['at 10:30 on 03.14.2024'],
    ['pages 1 - 5 and 6 - 10'],
    ['score 3 - 2 - 1'],
    ['Home \u00b7 About \u00b7 Contact'],
    ['agent: your total is 45\ncustomer: 12 items please'],
    ['customer: follow\nagent: @janedoe on social'],
    [
      '\u041c\u043e\u0439 \u0437\u0430\u043a\u0430\u0437 \u0412\u041e\u0422 \u0433\u043e\u0442\u043e\u0432',
    ],
    ['customer: 4111 1111\n\ncustomer: 1111 1111'],
  ],
};

const sut = new Redactor();
const found = (text: string): Array<[EntityType, string]> =>
  sut.redact(text).entities.map((e) => [e.type, text.slice(e.start, e.end)]);

describe.each(Object.keys(POSITIVES))('%s', (name) => {
  it.each(POSITIVES[name])('masks %j', (text, type, span) => {
    expect(found(text)).toContainEqual([type, span]);
  });
  it.each(NEGATIVES[name] ?? [])('leaves %j alone', (text) => {
    expect(found(text)).toEqual([]);
  });
});
