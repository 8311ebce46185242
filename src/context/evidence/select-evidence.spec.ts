import { DEFAULT_EVIDENCE_OPTIONS, type EvidenceOptions, selectEvidence } from './select-evidence';

const at = (day: number) => new Date(Date.UTC(2025, 0, day)).toISOString();

/** A six-turn window; `turn` picks which of its turns mentions the query's words. */
const window = (id: string, conversation: string, score: number, day = 1, text = 'chat') => ({
  id,
  conversation_uid: conversation,
  score,
  occurred_at: at(day),
  content: Array.from(
    { length: 6 },
    (_, i) => `${i % 2 ? 'agent' : 'customer'}: ${id} ${text} ${i}`,
  ).join('\n'),
});

const options = (o: Partial<EvidenceOptions> = {}): EvidenceOptions => ({
  ...DEFAULT_EVIDENCE_OPTIONS,
  trim: null,
  baseK: 5,
  maxK: 5,
  ...o,
});

const ids = (s: ReturnType<typeof selectEvidence>) => s.excerpts.map((e) => e.window.id);

describe('selectEvidence', () => {
  it('takes one slot for two overlapping windows: the union, at the best score', () => {
    const lines = Array.from({ length: 10 }, (_, i) => `customer: turn ${i}`);
    const first = { ...window('w1', 'c1', 0.8, 1), content: lines.slice(0, 6).join('\n') };
    const second = { ...window('w2', 'c1', 0.9, 2), content: lines.slice(4).join('\n') };
    const sut = selectEvidence('turn', [first, second, window('x', 'c2', 0.5)], options());
    expect(ids(sut)).toEqual(['w2', 'x']);
    expect(sut.excerpts[0].content).toBe(lines.join('\n'));
    expect(sut.excerpts[0].windowIds).toEqual(['w2', 'w1']);
    expect(sut.excerpts[0].occurred_at).toBe(at(2));
    expect(sut.dropped.get('w1')).toEqual({ reason: 'merged', into: 'w2' });
  });

  it('prefers another conversation over a second excerpt of one when scores are close', () => {
    const pool = [window('a1', 'A', 0.9), window('a2', 'A', 0.85), window('b1', 'B', 0.8)];
    expect(ids(selectEvidence('q', pool, options({ maxK: 2, baseK: 2 })))).toEqual(['a1', 'b1']);
    // Without the diversity step the two windows of A crowd B out.
    const crowded = selectEvidence('q', pool, options({ maxK: 2, baseK: 2, diversity: 0 }));
    expect(ids(crowded)).toEqual(['a1', 'a2']);
    expect(crowded.dropped.get('b1')).toEqual({ reason: 'rank' });
  });

  it('keeps a clearly better second excerpt of the same conversation (single-fact strength)', () => {
    const pool = [window('a1', 'A', 0.9), window('a2', 'A', 0.8), window('b1', 'B', 0.5)];
    expect(ids(selectEvidence('q', pool, options({ maxK: 2, baseK: 2 })))).toEqual(['a1', 'a2']);
  });

  it('treats final_k as a hard cap: never more than maxK excerpts', () => {
    const pool = Array.from({ length: 10 }, (_, i) => window(`w${i}`, `c${i}`, 1 - i / 100));
    expect(selectEvidence('q', pool, options({ baseK: 3, maxK: 3 })).excerpts).toHaveLength(3);
  });

  it('fills past baseK only with excerpts within the margin of the best', () => {
    const pool = [1, 0.9, 0.8, 0.75, 0.6, 0.5].map((s, i) => window(`w${i}`, `c${i}`, s));
    const sut = selectEvidence('q', pool, options({ baseK: 2, maxK: 10, fillMargin: 0.7 }));
    expect(ids(sut)).toEqual(['w0', 'w1', 'w2', 'w3']);
    expect(sut.dropped.get('w4')).toEqual({ reason: 'threshold' });
    // Within the margin but out of slots: a rank drop, not a threshold one.
    const full = selectEvidence('q', pool, options({ baseK: 2, maxK: 3, fillMargin: 0.7 }));
    expect(full.dropped.get('w3')).toEqual({ reason: 'rank' });
  });

  it('trims long windows to the turns around the query match, speakers kept', () => {
    const hit = {
      ...window('w', 'c', 0.9),
      content: [
        'customer: hello there',
        'agent: how can I help',
        'customer: I booked a table',
        'agent: the restaurant phone is 555',
        'customer: thanks',
        'agent: goodbye now',
      ].join('\n'),
    };
    const others = [1, 2, 3, 4].map((i) => window(`o${i}`, `d${i}`, 0.5));
    const sut = selectEvidence('restaurant phone', [hit, ...others], {
      ...options(),
      trim: DEFAULT_EVIDENCE_OPTIONS.trim,
    });
    expect(sut.excerpts[0].content).toBe(
      'customer: I booked a table\nagent: the restaurant phone is 555\ncustomer: thanks',
    );
    expect(sut.excerpts[0].trimmed).toBe(true);
  });
});
