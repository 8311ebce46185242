import { knownSenders, speakerOf, splitTurns } from './turns';

describe('turns', () => {
  it('reads the sender of a `sender: text` line', () => {
    expect(speakerOf('customer: hi')).toBe('customer');
    expect(speakerOf('no label here')).toBeUndefined();
  });

  it('keeps a multi-line message in one turn: only known senders start a turn', () => {
    const content = 'customer: my list:\nNote: bring the receipt\nagent: noted';
    // "agent" starts no window, but speaks twice; "Note" is inside one message only.
    const senders = knownSenders([content, 'customer: hi\nagent: hello']);
    expect([...senders].sort()).toEqual(['agent', 'customer']);
    expect(splitTurns(content, senders)).toEqual([
      'customer: my list:\nNote: bring the receipt',
      'agent: noted',
    ]);
  });
});
