import { Redactor } from '../redactor';

/** Addresses spelled out letter by letter (`spelled-email.ts`): each fails on the old code. */
describe('EMAIL spelled letter by letter', () => {
  const sut = new Redactor();
  const masked = (text: string): string[] =>
    sut.redact(text).entities.map((e) => text.slice(e.start, e.end));

  it.each<[string, string, string]>([
    [
      'spaced letters and "@"',
      'write to a l i c e @ e x a m p l e . c o m today',
      'a l i c e @ e x a m p l e . c o m',
    ],
    [
      '"at" and "dot" words',
      'it is a l i c e at e x a m p l e dot c o m ok',
      'a l i c e at e x a m p l e dot c o m',
    ],
    [
      'hyphens between letters',
      'write to a-l-i-c-e@e-x-a-m-p-l-e.c-o-m today',
      'a-l-i-c-e@e-x-a-m-p-l-e.c-o-m',
    ],
    [
      'dots between letters',
      'write to a.l.i.c.e@e.x.a.m.p.l.e.c.o.m today',
      'a.l.i.c.e@e.x.a.m.p.l.e.c.o.m',
    ],
    [
      'a spelled dotted local part',
      'a l i c e . j o n e s @ e x a m p l e . c o m',
      'a l i c e . j o n e s @ e x a m p l e . c o m',
    ],
    [
      'a written local part, spelled domain',
      'write to alice.jones@e x a m p l e . c o m now',
      'alice.jones@e x a m p l e . c o m',
    ],
    [
      'a spelled local part, written domain',
      'write to a l i c e @ example.com now',
      'a l i c e @ example.com',
    ],
    [
      'a spelled label before a written TLD',
      'j d o e 4 2 at e x a m p l e . com',
      'j d o e 4 2 at e x a m p l e . com',
    ],
    [
      'two-label TLD',
      'A l i c e _ J o n e s @ e x a m p l e . c o . u k',
      'A l i c e _ J o n e s @ e x a m p l e . c o . u k',
    ],
  ])('%s', (_name, text, value) => {
    expect(masked(text)).toEqual([value]);
  });

  it.each([
    'the letters a b c at the end',
    'grades A, B and C at the school',
    'x y z @ a b c',
    'me at h o m e . c o m',
    'Plan A at B.com',
    'a b @ c d e f',
    'rows a b c at x y z dot q',
    'John G. Trump, a professor at M.I.T. and a well-known engineer',
  ])('leaves prose with lone letters alone: %s', (text) => {
    expect(masked(text)).toEqual([]);
  });

  it('reads a bounded stretch back from each "@" in a long run of lone letters', () => {
    const text = `${'a '.repeat(5000)}@ e x a m p l e . c o m`;
    const [only] = sut.redact(text).entities;
    // At most 64 tokens of local part: the walk stops there, the run before it stays.
    expect(only.start).toBe(text.indexOf('@') - 2 * 64);
    expect(only.end).toBe(text.length);
  });
});
