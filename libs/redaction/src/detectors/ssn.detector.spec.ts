import type { EntityType } from '../entity-types';
import { Redactor } from '../redactor';
import { isSsn } from './ssn.detector';

type Finding = [EntityType, string];

describe('US_SSN', () => {
  const sut = new Redactor();
  const findings = (text: string): Finding[] =>
    sut.redact(text).entities.map((e) => [e.type, text.slice(e.start, e.end)]);

  it.each([
    ['536221234', true],
    ['000221234', false], // area 000
    ['666221234', false], // area 666
    ['900221234', false], // area 900–999
    ['999221234', false],
    ['536001234', false], // group 00
    ['536220000', false], // serial 0000
    ['078051120', false], // Woolworth sample
    ['219099999', false], // SSA sample
    ['123456789', false], // the obvious sample
    ['53622123', false], // 8 digits
  ])('isSsn(%s) is %s', (digits, expected) => {
    expect(isSsn(digits)).toBe(expected);
  });

  it.each<[string, string, Finding[]]>([
    ['dashed', 'SSN 536-22-1234 on file', [['US_SSN', '536-22-1234']]],
    ['spaced', 'it is 536 22 1234.', [['US_SSN', '536 22 1234']]],
    ['without a keyword', 'number 772-10-4321, thanks', [['US_SSN', '772-10-4321']]],
    ['bare nine digits after "SSN"', 'SSN: 536221234', [['US_SSN', '536221234']]],
    [
      'bare nine digits after "social security number"',
      'my social security number is 536221234',
      [['US_SSN', '536221234']],
    ],
    ['at the end of a sentence', 'Use 401-33-0001.', [['US_SSN', '401-33-0001']]],
  ])('masks %s', (_name, text, expected) => {
    expect(findings(text)).toEqual(expected);
  });

  // Once the customer says it is their SSN, validity rules would only let typos, ITINs and
  // the numbers test suites use ("my SSN is 123-45-6789") through.
  it.each<[string, string, string]>([
    ['area 000', 'ssn 000-12-3456', '000-12-3456'],
    ['area 666', 'ssn 666-12-3456', '666-12-3456'],
    ['an ITIN (area 9xx)', 'my ITIN is 912-70-1234', '912-70-1234'],
    ['group 00', 'ssn 536-00-1234', '536-00-1234'],
    ['serial 0000', 'ssn 536-22-0000', '536-22-0000'],
    ['the 123-45-6789 sample', 'my SSN is 123-45-6789', '123-45-6789'],
    ['the Woolworth sample', 'social security number: 078-05-1120', '078-05-1120'],
    ['mixed delimiters (dash then space)', 'ssn 536-22 1234', '536-22 1234'],
    ['mixed delimiters (space then dash)', 'ssn 536 22-1234', '536 22-1234'],
  ])('masks %s near an SSN keyword', (_name, text, value) => {
    expect(findings(text)).toEqual([['US_SSN', value]]);
  });

  it.each<[string, string]>([
    ['area 000', 'ref 000-12-3456'],
    ['area 666', 'ref 666-12-3456'],
    ['area 900+', 'ref 912-12-3456'],
    ['group 00', 'ref 536-00-1234'],
    ['serial 0000', 'ref 536-22-0000'],
    ['mixed delimiters without a keyword', 'ref 536-22 1234'],
    ['the Woolworth sample 078-05-1120', 'e.g. 078-05-1120'],
    ['the SSA sample 219-09-9999', 'e.g. 219-09-9999'],
    ['the 123-45-6789 sample', 'e.g. 123-45-6789'],
    ['bare nine digits without a keyword', 'order 536221234 shipped'],
    ['an order id', 'Order ABC-12345 shipped'],
    ['part of a longer dashed id', 'ref 536-22-1234-77'],
    ['a ZIP+4', 'Springfield 62704-1234'],
  ])('leaves %s alone', (_name, text) => {
    expect(sut.redact(text).text).toBe(text);
  });
});
