import { runInNewContext } from 'node:vm';

import { type RedactionResult, Redactor } from '../redactor';

/**
 * Dash- and underscore-wrapped separators ("-dot-", "_dot_", "-at-", "_at_") are also
 * characters a label may hold. When a label could swallow them, the engine tried every split
 * of "b-dot-b-dot-…" into labels: each attempt's window is bounded (so `linear` passes it),
 * but the splits of one window are not few: 1.3 s per KB at 794382d. These texts are read
 * in one split now. The guard below stops a run that has gone catastrophic (the old code
 * took minutes for each text here; it now takes milliseconds): it is not a speed threshold.
 */
const HANG_GUARD_MS = 20_000;

/** `redact(text)`, stopped (a thrown timeout) if it runs past the guard. */
function redactGuarded(sut: Redactor, text: string): RedactionResult {
  return runInNewContext(
    'run()',
    { run: () => sut.redact(text) },
    {
      timeout: HANG_GUARD_MS,
    },
  ) as RedactionResult;
}

const chain = (unit: string, bytes: number, tail = '') =>
  unit.repeat(Math.ceil(bytes / unit.length)) + tail;

describe('spoken e-mail patterns on wrapped separators', () => {
  const sut = new Redactor();

  it.each<[string, string]>([
    // Local words and domain labels joined by "-dot-", around a "-at-" (old: ~1.3 s per KB).
    [
      'dash-wrapped dots around -at-',
      chain(`a${'-dot-b'.repeat(12)}-at-${'b-dot-'.repeat(12)}zz `, 16_384, ' -com'),
    ],
    [
      'underscore-wrapped dots around _at_',
      chain(`a${'_dot_b'.repeat(12)}_at_${'b_dot_'.repeat(12)}zz `, 16_384, ' _com'),
    ],
    // A written "@" before a domain of "-dot-" labels (old: ~0.1 s per KB).
    ['dash-wrapped dots after @', chain(`a@${'b-dot-'.repeat(40)}zz `, 262_144)],
  ])('reads %s in one split (no address in it)', (_name, text) => {
    expect(redactGuarded(sut, text).entities).toEqual([]);
  });

  it.each<[string, string, string]>([
    [
      'dash-wrapped dots',
      'write jane-dot-doe-at-example-dot-com now',
      'jane-dot-doe-at-example-dot-com',
    ],
    [
      'underscore-wrapped dots',
      'write jane_at_mail_dot_example_dot_org now',
      'jane_at_mail_dot_example_dot_org',
    ],
    ['a dashed label before -dot-', 'mail a@my-shop-dot-com today', 'a@my-shop-dot-com'],
    [
      'a dash-wrapped dot after a long hostile run',
      `${'b-dot-'.repeat(30)} mail a@x-dot-io`,
      'a@x-dot-io',
    ],
  ])('still masks an address with %s', (_name, text, expected) => {
    const { entities } = redactGuarded(sut, text);
    expect(entities.map((e) => text.slice(e.start, e.end))).toEqual([expected]);
  });
});
