import { Redactor } from './redactor';

describe('Redactor.redactTurns', () => {
  const sut = new Redactor();

  it('masks a card number split over two messages in both halves', () => {
    const out = sut.redactTurns([
      { sender: 'customer', text: 'my card is 4111 1111' },
      { sender: 'customer', text: '1111 1111 thanks' },
    ]);
    expect(out.join(' ')).not.toMatch(/\d{4}/);
    expect(out[0]).toContain('[REDACTED:');
    expect(out[1]).toMatch(/^\[REDACTED:[A-Z_]+\] thanks$/);
  });

  it('masks an e-mail address split over two messages', () => {
    const out = sut.redactTurns([
      { sender: 'customer', text: 'write to alice.jones' },
      { sender: 'customer', text: '@example.com please' },
    ]);
    expect(out.join(' ')).not.toMatch(/alice|example\.com/);
  });

  it('keeps what one message alone masks, and leaves ordinary messages alone', () => {
    const out = sut.redactTurns([
      { sender: 'agent', text: 'How can I help?' },
      { sender: 'customer', text: 'mail jane@example.com about order ABC-12345' },
    ]);
    expect(out[0]).toBe('How can I help?');
    expect(out[1]).toBe('mail [REDACTED:EMAIL] about order ABC-12345');
  });

  it('reads a hostile sender as a plain label and never lets it join two values', () => {
    const out = sut.redactTurns([
      { sender: 'x'.repeat(10_000), text: '4111 1111' },
      { sender: '\n\n: :', text: '1111 1111' },
    ]);
    expect(out.join(' ')).not.toMatch(/\d{4}/);
    expect(sut.redactTurns([])).toEqual([]);
  });
});
