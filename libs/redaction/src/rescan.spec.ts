import fc from 'fast-check';

import { DETECTORS } from './detector-table';
import type { Detection } from './detectors/detector';
import { PLACEHOLDERS } from './entity-types';
import { Redactor } from './redactor';
import { detectInWindows, freshMarks, RESCAN_RADIUS, rescanBudget, rescanWindows } from './rescan';
import { render, resolveOverlaps, type Span } from './resolve';

/**
 * The fixed point as it was computed before windows: every pass reads the whole rendered
 * text (ASCII input only, so no folding). The oracle the windowed passes must agree with.
 */
function wholePasses(input: string): string {
  const options = { enabled: new Set(new Redactor().entities), phoneRegions: ['US' as const] };
  const detect = (text: string): Detection[] => {
    const out: Detection[] = [];
    for (const d of DETECTORS) {
      d.detect(text, options, out);
    }
    return resolveOverlaps(out);
  };
  let spans: Span[] = [];
  for (let pass = 0; pass < 4; pass++) {
    const current = render(input, spans);
    const added: Span[] = [];
    for (const f of detect(current)) {
      let delta = 0;
      let touches = false;
      for (const s of spans) {
        const at = s.start + delta;
        if (f.end <= at) {
          break;
        }
        touches ||= f.start < at + PLACEHOLDERS[s.type].length;
        delta += PLACEHOLDERS[s.type].length - (s.end - s.start);
      }
      if (!touches) {
        added.push({ type: f.type, start: f.start - delta, end: f.end - delta });
      }
    }
    if (added.length === 0) {
      break;
    }
    spans = [...spans, ...added].sort((a, b) => a.start - b.start);
  }
  return render(input, spans);
}

describe('later passes read windows around new masks', () => {
  const sut = new Redactor();

  it('reads a few windows more than one pass where each pass unlocks another phone', () => {
    // "[REDACTED:PHONE]" is phone context for the groups after it, so every pass masks more.
    const text = `call ${'12 '.repeat(22_000)}`.slice(0, 64 * 1024);
    const phone = DETECTORS.find((d) => d.name === 'phone')!;
    const spy = jest.spyOn(phone, 'detect');
    try {
      const result = sut.redact(text);
      expect(result.entities.length).toBeGreaterThan(3); // later passes did find more
      const read = spy.mock.calls.reduce((n, [t]) => n + t.length, 0);
      // Whole passes read 4 × 64 KiB; here three passes read a window round two masks each.
      expect(read).toBeLessThanOrEqual(text.length + 3 * (4 * RESCAN_RADIUS + 64));
      expect(result.text).toBe(wholePasses(text));
    } finally {
      spy.mockRestore();
    }
  });

  it('agrees with whole-text passes on long mixed text', () => {
    const pii = fc.constantFrom(
      'call 415 555 0134 or 555-0199',
      'born on 03/14/1985',
      '742 Evergreen Terrace, Springfield, IL 62704',
      'card 4111 1111 1111 1111',
      'mail jane.doe@example.com',
      'ssn 123-45-6789',
      'four one one one one one one one one one one one one one one one',
      'IBAN GB82 WEST 1234 5698 7654 32',
    );
    const gap = fc.nat({ max: 6000 }).map((n) => 'we talked about the weather. '.repeat(n / 29));
    const text = fc
      .array(fc.tuple(gap, pii), { minLength: 1, maxLength: 12 })
      .map((parts) => parts.map(([g, p]) => `${g}${p} `).join(''));
    fc.assert(
      fc.property(text, (t) => expect(sut.redact(t).text).toBe(wholePasses(t))),
      { numRuns: 25 },
    );
  });

  it('rescans a long text its first masks lengthen past the budget of its input', () => {
    // Each phone (12 chars) becomes a 16-char placeholder: the rendered text outgrows the
    // input-sized budget, which once skipped the second pass and left every address in clear.
    const text = 'call 415-555-0134 12 Main St. '.repeat(1000);
    const out = sut.redact(text).text;
    expect(out).not.toContain('Main St');
    expect(out).toBe(wholePasses(text));
  });
});

describe('rescan windows', () => {
  it('allows short texts three whole passes and long ones one', () => {
    expect(rescanBudget(1000)).toBe(3000);
    expect(rescanBudget(8 * 1024)).toBe(24 * 1024);
    expect(rescanBudget(16 * 1024)).toBe(24 * 1024);
    expect(rescanBudget(64 * 1024)).toBe(64 * 1024);
  });

  it('finds the new placeholders in the rendered text', () => {
    const a: Span = { type: 'EMAIL', start: 5, end: 10 };
    const b: Span = { type: 'PHONE', start: 20, end: 30 };
    const text = render('x'.repeat(40), [a, b]);
    const { marks, length } = freshMarks(40, [a, b], new Set([b]));
    expect(length).toBe(text.length);
    expect(text.slice(marks[0].start, marks[0].end)).toBe(PLACEHOLDERS.PHONE);
  });

  it('merges overlapping windows, clamps them to the text and stops at the budget', () => {
    const r = RESCAN_RADIUS;
    const marks = [
      { start: 10, end: 20 },
      { start: 30, end: 40 },
      { start: 10 * r, end: 10 * r + 10 },
    ];
    expect(rescanWindows(marks, 20 * r, Infinity)).toEqual([
      { start: 0, end: 40 + r },
      { start: 9 * r, end: 11 * r + 10 },
    ]);
    expect(rescanWindows(marks, 20 * r, 3 * r)).toEqual([{ start: 0, end: 40 + r }]);
    expect(rescanWindows(marks, 20 * r, r)).toEqual([]);
  });

  it('drops candidates near an edge that cuts the text, not near the text’s own ends', () => {
    const text = 'a'.repeat(10_000);
    const found = (w: string): Detection[] => [
      { type: 'EMAIL', start: 0, end: 5, score: 1 },
      {
        type: 'EMAIL',
        start: Math.floor(w.length / 2),
        end: Math.floor(w.length / 2) + 5,
        score: 1,
      },
      { type: 'EMAIL', start: w.length - 5, end: w.length, score: 1 },
    ];
    const inner = detectInWindows(text, [{ start: 3000, end: 7000 }], found);
    expect(inner.map((c) => c.start)).toEqual([5000]);
    const whole = detectInWindows(text, [{ start: 0, end: 10_000 }], found);
    expect(whole.map((c) => c.start)).toEqual([0, 5000, 9995]);
  });
});
