import { GAP, trimTurns } from './trim-turns';

const window = ['customer: a', 'agent: b', 'customer: c', 'agent: d', 'customer: e', 'agent: f'];
const options = { above: 4, radius: 1, anchorShare: 0.8 };

describe('trimTurns', () => {
  it('keeps the best-matching turn and one turn either side, whole (speaker included)', () => {
    const sut = trimTurns(window, [0, 0, 0, 0.9, 0, 0], options);
    expect(sut).toEqual({ turns: ['customer: c', 'agent: d', 'customer: e'], trimmed: true });
  });

  it('slides the span inward at an edge so it still holds three turns', () => {
    expect(trimTurns(window, [0.5, 0, 0, 0, 0, 0], options).turns).toEqual(window.slice(0, 3));
    expect(trimTurns(window, [0, 0, 0, 0, 0, 0.5], options).turns).toEqual(window.slice(3));
  });

  it('keeps every strong match of a merged excerpt, with a gap mark between runs', () => {
    const ten = [...window, 'customer: g', 'agent: h', 'customer: i', 'agent: j'];
    const sut = trimTurns(ten, [0, 1, 0, 0, 0, 0, 0, 0, 0.9, 0], options);
    expect(sut.turns).toEqual(['customer: a', 'agent: b', 'customer: c', GAP, ...ten.slice(7, 10)]);
  });

  it('keeps a window whole when it is short, when nothing matches, or when little would go', () => {
    expect(trimTurns(window.slice(0, 4), [1, 0, 0, 0], options).trimmed).toBe(false);
    expect(trimTurns(window, [0, 0, 0, 0, 0, 0], options)).toEqual({
      turns: window,
      trimmed: false,
    });
    // Two anchors far apart would keep five of six turns: not worth a gap mark.
    expect(trimTurns(window, [1, 0, 0, 0, 1, 0], options).trimmed).toBe(false);
  });
});
