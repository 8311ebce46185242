import fc from 'fast-check';

import type { Detection } from './detectors/detector';
import { ENTITY_TYPES } from './entity-types';
import { resolveOverlaps } from './resolve';

/** The greedy pick as first written: one comparison sort, then first fit. */
function reference(candidates: readonly Detection[]): Detection[] {
  const rank = (t: Detection['type']) => ENTITY_TYPES.indexOf(t);
  const sorted = [...candidates].sort(
    (a, b) =>
      b.end - b.start - (a.end - a.start) ||
      b.score - a.score ||
      rank(a.type) - rank(b.type) ||
      a.start - b.start,
  );
  const kept: Detection[] = [];
  for (const c of sorted) {
    if (c.end > c.start && kept.every((k) => k.end <= c.start || k.start >= c.end)) {
      kept.push(c);
    }
  }
  return kept.sort((a, b) => a.start - b.start);
}

describe('resolveOverlaps', () => {
  it('keeps what one comparison sort and first fit keep, in any input order', () => {
    const candidate = fc
      .record({
        type: fc.constantFrom(...ENTITY_TYPES),
        start: fc.nat({ max: 300 }),
        length: fc.integer({ min: -1, max: 20 }),
        score: fc.constantFrom(0.5, 0.8, 0.85, 0.9),
      })
      .map(({ type, start, length, score }) => ({ type, start, end: start + length, score }));
    fc.assert(
      fc.property(fc.array(candidate, { maxLength: 200 }), (candidates) => {
        expect(resolveOverlaps(candidates)).toEqual(reference(candidates));
      }),
      { numRuns: 300 },
    );
  });
});
