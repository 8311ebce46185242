import type { EntityType } from '../entity-types';
import { Redactor } from '../redactor';
import { isCardNumber, luhnValid } from './credit-card.detector';

type Finding = [EntityType, string];

describe('CREDIT_CARD', () => {
  const sut = new Redactor();
  const findings = (text: string): Finding[] =>
    sut.redact(text).entities.map((e) => [e.type, text.slice(e.start, e.end)]);

  describe('luhnValid / isCardNumber', () => {
    it.each([
      ['4111111111111111', true],
      ['4111111111111112', false],
      ['378282246310005', true],
      ['0', true],
    ])('luhnValid(%s) is %s', (digits, expected) => {
      expect(luhnValid(digits)).toBe(expected);
    });

    it.each([
      ['Visa 16', '4111111111111111', true],
      ['Visa 13', '4222222222222', true],
      ['Visa 19', '4111111111111111110', true],
      ['Mastercard', '5500005555555559', true],
      ['Mastercard 2-series', '2223003122003222', true],
      ['Amex', '378282246310005', true],
      ['Diners 14', '30569309025904', true],
      ['Discover', '6011111111111117', true],
      ['JCB', '3530111333300000', true],
      ['Luhn-invalid 16 digits', '4111111111111112', false],
      ['Luhn-valid 13 digits not starting with 4 (epoch ms)', '1710411753125', false],
      ['Luhn-valid 16 digits starting with 1', '1700000000000001', false],
      ['Luhn-valid but leading 7 (no card scheme)', '7111111111111114', false],
      ['all zeros', '0000000000000000', false],
      ['too short', '411111111111', false],
      ['too long', '41111111111111111111', false],
    ])('%s: %s → %s', (_name, digits, expected) => {
      expect(isCardNumber(digits)).toBe(expected);
    });
  });

  it.each<[string, string, Finding[]]>([
    ['contiguous Visa', 'card 4111111111111111 on file', [['CREDIT_CARD', '4111111111111111']]],
    [
      'spaced 4-4-4-4',
      'it is 4111 1111 1111 1111 thanks',
      [['CREDIT_CARD', '4111 1111 1111 1111']],
    ],
    ['dashed 4-4-4-4', 'use 5500-0055-5555-5559 please', [['CREDIT_CARD', '5500-0055-5555-5559']]],
    ['Amex 4-6-5', 'amex 3782 822463 10005.', [['CREDIT_CARD', '3782 822463 10005']]],
    ['Diners 4-6-4', 'diners 3056 930902 5904', [['CREDIT_CARD', '3056 930902 5904']]],
    [
      '19 digits 4-4-4-4-3',
      'x 4111 1111 1111 1111 110 y',
      [['CREDIT_CARD', '4111 1111 1111 1111 110']],
    ],
    [
      'mixed space and dash',
      'pay 4111-1111 1111-1111 now',
      [['CREDIT_CARD', '4111-1111 1111-1111']],
    ],
    [
      'followed by expiry',
      'card 4111 1111 1111 1111 12/27',
      [['CREDIT_CARD', '4111 1111 1111 1111']],
    ],
    [
      'followed by a CVV group',
      'card 6011 1111 1111 1117 123',
      [['CREDIT_CARD', '6011 1111 1111 1117']],
    ],
    ['after a colon', 'Card:4012888888881881.', [['CREDIT_CARD', '4012888888881881']]],
    [
      'two cards',
      '4111111111111111 and 5105105105105100',
      [
        ['CREDIT_CARD', '4111111111111111'],
        ['CREDIT_CARD', '5105105105105100'],
      ],
    ],
    ['underscores', 'card 4111_1111_1111_1111', [['CREDIT_CARD', '4111_1111_1111_1111']]],
    ['bars', 'card 4111|1111|1111|1111', [['CREDIT_CARD', '4111|1111|1111|1111']]],
    ['colons', 'card 4111:1111:1111:1111', [['CREDIT_CARD', '4111:1111:1111:1111']]],
    ['commas', 'card 4111,1111,1111,1111', [['CREDIT_CARD', '4111,1111,1111,1111']]],
  ])('masks %s', (_name, text, expected) => {
    expect(findings(text)).toEqual(expected);
  });

  it.each<[string, string]>([
    ['a Luhn-invalid 16-digit number', 'card 4111 1111 1111 1112 declined'],
    ['a Luhn-invalid contiguous number', 'ref 1234567890123456'],
    ['an epoch-millisecond timestamp that passes Luhn', 'ts=1710411753125'],
    ['an unusual 2-2-2 grouping', 'code 41 11 11 11 11 11 11 11'],
    ['a 12-digit number', 'id 411111111111'],
    ['a price', 'total $4,111.11'],
    ['digits glued to letters', 'SKU4111111111111111X'],
    ['a decimal', 'pi is 3.530111333300000'],
    ['a thousands grouping', 'population 1,234,567,890,123,456'],
    ['a time with a long fraction', 'at 10:30:45:123456789012'],
  ])('leaves %s alone', (_name, text) => {
    expect(sut.redact(text).text).toBe(text);
  });
});
