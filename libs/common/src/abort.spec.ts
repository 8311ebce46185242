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

  describe('with a clean-up for what the work brings late', () => {
    it('hands work that ends after the abort to the clean-up, never to the caller', async () => {
      let arrive: (v: string) => void = () => undefined;
      const work = new Promise<string>((resolve) => (arrive = resolve));
      const controller = new AbortController();
      const late: string[] = [];
      const waiting = untilAborted(work, controller.signal, (w) => {
        void w.then((v) => late.push(v));
      });
      controller.abort();
      await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
      arrive('connection');
      await work;
      await new Promise((resolve) => setImmediate(resolve));
      expect(late).toEqual(['connection']);
    });

    it('cleans up the work of a signal that had already aborted', async () => {
      const cleanUp = jest.fn();
      const work = Promise.resolve('connection');
      await expect(untilAborted(work, AbortSignal.abort(), cleanUp)).rejects.toMatchObject({
        name: 'AbortError',
      });
      expect(cleanUp).toHaveBeenCalledWith(work);
    });

    it('leaves a value the caller got alone, even when the signal aborts just after', async () => {
      const cleanUp = jest.fn();
      const controller = new AbortController();
      await expect(
        untilAborted(Promise.resolve('connection'), controller.signal, cleanUp),
      ).resolves.toBe('connection');
      controller.abort();
      expect(cleanUp).not.toHaveBeenCalled();
    });

    it('passes a failure of the work through without cleaning anything up', async () => {
      const cleanUp = jest.fn();
      const work = Promise.reject(new Error('pool closed'));
      await expect(
        untilAborted(work, new AbortController().signal, cleanUp),
      ).rejects.toThrow('pool closed');
      expect(cleanUp).not.toHaveBeenCalled();
    });
  });
});
