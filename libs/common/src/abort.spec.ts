import { sleep, untilAborted } from './abort';

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

  it('observes shared work that rejects after the signal had already aborted', async () => {
    let fail: (error: Error) => void = () => undefined;
    const work = new Promise<string>((_, reject) => (fail = reject));
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      await expect(untilAborted(work, AbortSignal.abort())).rejects.toMatchObject({
        name: 'AbortError',
      });
      fail(new Error('login failed'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
