import { mergeOverlaps, type WindowPiece } from './merge-overlaps';

/** Windows of 6 turns sharing 2, as `chunkConversations` cuts them. */
const turns = (conversation: string, from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `customer: ${conversation} turn ${from + i}`);

const piece = (
  id: string,
  conversation: string,
  range: [number, number],
  score: number,
): WindowPiece => ({
  id,
  conversation_uid: conversation,
  turns: turns(conversation, ...range),
  score,
  // A window's time is its last turn's: one minute per turn.
  occurred_at: new Date(Date.UTC(2025, 0, 1, 0, range[1])).toISOString(),
});

describe('mergeOverlaps', () => {
  it('merges overlapping windows of one conversation into one excerpt, in turn order', () => {
    const later = piece('w2', 'c1', [4, 10], 0.9);
    const earlier = piece('w1', 'c1', [0, 6], 0.8);
    const merged: string[] = [];
    const sut = mergeOverlaps([later, earlier], (w, into) => merged.push(`${w.id}>${into.id}`));
    expect(sut).toHaveLength(1);
    expect(sut[0].lead).toBe(later); // the best window stands for the excerpt
    expect(sut[0].turns).toEqual(turns('c1', 0, 10)); // the union, each shared turn once
    expect(sut[0].members.map((m) => m.id)).toEqual(['w2', 'w1']);
    expect(sut[0].occurred_at).toBe(later.occurred_at);
    expect(merged).toEqual(['w1>w2']);
  });

  it('chains: a window that bridges two excerpts joins them', () => {
    const sut = mergeOverlaps([
      piece('a', 'c1', [0, 6], 0.9),
      piece('c', 'c1', [8, 14], 0.8),
      piece('b', 'c1', [4, 10], 0.7),
    ]);
    expect(sut).toHaveLength(1);
    expect(sut[0].turns).toEqual(turns('c1', 0, 14));
  });

  it('never merges across conversations, nor windows that only sit near each other', () => {
    const sut = mergeOverlaps([
      piece('a', 'c1', [0, 6], 0.9),
      piece('b', 'c2', [4, 10], 0.8),
      piece('c', 'c1', [8, 14], 0.7), // same conversation, no shared turn
    ]);
    expect(sut.map((p) => p.lead.id)).toEqual(['a', 'b', 'c']);
  });

  it('leaves a coincidental match alone: a later window ending as an earlier one starts', () => {
    const early = { ...piece('a', 'c1', [0, 6], 0.9), turns: ['customer: yes', 'agent: one'] };
    const late = { ...piece('b', 'c1', [20, 26], 0.8), turns: ['agent: two', 'customer: yes'] };
    expect(mergeOverlaps([early, late])).toHaveLength(2);
  });
});
