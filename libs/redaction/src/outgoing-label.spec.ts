import { isLabelWord, outgoingLabel, WITHHELD_LABEL } from './outgoing-label';
import { bundleOf, Redactor } from './redactor';

/**
 * A stored channel leaves beside the redacted text: only a word does (h6: channels stored
 * before the ingest rule came back as stored from every route).
 */
describe('outgoingLabel', () => {
  it.each(['sms', 'email', 'web_chat', 'facebook-messenger', 'call', 'web2', 'channel-10'])(
    'lets the word %j leave as is',
    (label) => {
      expect(outgoingLabel(label)).toBe(label);
    },
  );

  it.each([
    ['a phone number', '+1 415 555 0132'],
    ['a dashed phone number', '415-555-0132'],
    ['digits after a letter', 'sms4155550132'],
    ['a year', 'born1985'],
    ['an e-mail address', 'alice.jones@example.com'],
    ['words with spaces', 'Alice Jones'],
    ['a long word', 'a'.repeat(33)],
    ['an empty string', ''],
    ['a leading digit', '1sms'],
    ['a fullwidth word', 'ｓｍｓ'],
    ['a trailing newline', 'sms\n'],
    ['a NUL', 'sms\u0000'],
    ['not a string', 42],
    ['null', null],
  ])('withholds %s', (_label, value) => {
    expect(isLabelWord(value)).toBe(false);
    expect(outgoingLabel(value)).toBe(WITHHELD_LABEL);
  });
});

describe('bundleOf', () => {
  const sut = new Redactor();

  it('holds each excerpt channel to a word, beside the redacted content', () => {
    const excerpts = [
      { content: 'call me on 415 555 0132', channel: '+1 415 555 0132', id: 'a' },
      { content: 'thanks', channel: 'sms', id: 'b' },
    ];
    const { excerpts: out } = sut.redactBundle(excerpts);
    expect(out).toEqual([
      { content: 'call me on [REDACTED:PHONE]', channel: 'redacted', id: 'a' },
      { content: 'thanks', channel: 'sms', id: 'b' },
    ]);
    expect(excerpts[0].channel).toBe('+1 415 555 0132'); // inputs untouched
  });

  it('adds no channel to an excerpt that has none (worker results too)', () => {
    const { excerpts: out } = bundleOf([{ content: 'x' }], [{ text: 'x', entities: [] }]);
    expect(out).toEqual([{ content: 'x' }]);
  });
});
