import { chunkConversations, windowId, type WindowMessage } from './conversation-windows';

const msg = (
  conv: string,
  minute: number,
  text: string,
  contact = 'ctc_1',
  location?: string,
): WindowMessage => ({
  conversation_uid: conv,
  contact_uid: contact,
  location_uid: location,
  channel: 'sms',
  occurred_at: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
  sender: minute % 2 === 0 ? 'customer' : 'agent',
  text,
});

describe('chunkConversations', () => {
  it('windows turns with overlap, in time order regardless of input order', () => {
    const turns = Array.from({ length: 10 }, (_, i) => msg('c1', i, `turn ${i}`)).reverse();
    const sut = chunkConversations(turns, { size: 4, overlap: 1 });
    expect(sut.map((w) => w.content.split('\n').map((l) => l.split(' ').pop()))).toEqual([
      ['0', '1', '2', '3'],
      ['3', '4', '5', '6'],
      ['6', '7', '8', '9'],
    ]);
    expect(sut[0].content.split('\n')[0]).toBe('customer: turn 0');
    expect(sut[2].occurred_at).toBe(turns[0].occurred_at);
  });

  it('keeps a short conversation in one window and never mixes conversations or contacts', () => {
    const sut = chunkConversations([
      msg('c1', 0, 'a'),
      msg('c2', 1, 'b'),
      msg('c1', 2, 'c'),
      msg('c1', 3, 'd', 'ctc_2'),
    ]);
    expect(sut.map((w) => [w.contact_uid, w.conversation_uid, w.content])).toEqual([
      ['ctc_1', 'c1', 'customer: a\ncustomer: c'],
      ['ctc_1', 'c2', 'agent: b'],
      ['ctc_2', 'c1', 'agent: d'],
    ]);
  });

  it('is deterministic: same messages, same windows', () => {
    const turns = Array.from({ length: 9 }, (_, i) => msg('c1', i, `t${i}`));
    expect(chunkConversations(turns)).toEqual(chunkConversations([...turns]));
  });

  it('covers every turn exactly at the tail (no dangling duplicate window)', () => {
    const turns = Array.from({ length: 6 }, (_, i) => msg('c1', i, `t${i}`));
    expect(chunkConversations(turns, { size: 6, overlap: 2 })).toHaveLength(1);
    expect(
      chunkConversations([...turns, msg('c1', 7, 't7')], { size: 6, overlap: 2 }),
    ).toHaveLength(2);
  });

  it('never mixes locations: one series per location, each labelled and identified by it', () => {
    const sut = chunkConversations([
      msg('c1', 0, 'a', 'ctc_1', 'loc_a'),
      msg('c1', 1, 'b', 'ctc_1', 'loc_b'),
      msg('c1', 2, 'c', 'ctc_1', 'loc_a'),
    ]);
    expect(sut.map((w) => [w.location_uid, w.content])).toEqual([
      ['loc_a', 'customer: a\ncustomer: c'],
      ['loc_b', 'agent: b'],
    ]);
    expect(sut[1].id).toBe(windowId('ctc_1', 'c1', 'loc_b', 'agent: b'));
    expect(sut[1].id).not.toBe(windowId('ctc_1', 'c1', 'loc_a', 'agent: b'));
  });

  it('breaks ties in time by content, not by arrival order', () => {
    const a = { ...msg('c1', 0, 'same minute, first text'), sender: 'agent' };
    const b = { ...msg('c1', 0, 'same minute, other text'), sender: 'agent' };
    expect(chunkConversations([a, b])).toEqual(chunkConversations([b, a]));
  });
});
