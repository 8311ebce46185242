import { parseRetryAfter, sleep, untilAborted } from './abortable';

describe('parseRetryAfter', () => {
  it.each([
    ['0', 0],
    ['2', 2000],
    [' 30 ', 30_000],
  ])('reads delay-seconds %p', (value, ms) => {
    expect(parseRetryAfter(value)).toBe(ms);
  });

  it('reads an HTTP-date relative to now, never negative', () => {
    const now = Date.parse('Wed, 02 Dec 2026 10:00:00 GMT');
    expect(parseRetryAfter('Wed, 02 Dec 2026 10:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Wed, 02 Dec 2026 09:00:00 GMT', now)).toBe(0);
  });

  it.each([[null], [''], ['soon'], ['-1']])('ignores %p', (value) => {
    expect(parseRetryAfter(value)).toBeUndefined();
  });
});

describe('untilAborted / sleep', () => {
  it('rejects when the signal aborts, leaving the shared work to finish', async () => {
    let finish: (v: string) => void = () => undefined;
    const work = new Promise<string>((resolve) => (finish = resolve));
    const controller = new AbortController();
    const waiting = untilAborted(work, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    finish('done');
    await expect(work).resolves.toBe('done');
  });

  it('passes the value through when the signal does not abort', async () => {
    await expect(untilAborted(Promise.resolve(1), new AbortController().signal)).resolves.toBe(1);
  });

  it('cuts a sleep short at the deadline', async () => {
    await expect(sleep(10_000, AbortSignal.timeout(20))).rejects.toMatchObject({
      name: 'TimeoutError',
    });
  });
});
