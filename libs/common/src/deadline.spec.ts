import { withDeadline } from './deadline';

describe('withDeadline', () => {
  it('returns the value when work finishes in time', async () => {
    await expect(withDeadline(1000, () => Promise.resolve(42))).resolves.toMatchObject({
      status: 'ok',
      value: 42,
    });
  });

  it('times out work that never settles, and aborts its signal', async () => {
    let signal: AbortSignal | undefined;
    const result = await withDeadline(10, (s) => {
      signal = s;
      return new Promise<never>(() => undefined);
    });
    expect(result.status).toBe('timeout');
    expect(signal?.aborted).toBe(true);
  });

  it('reports a rejection as an error outcome instead of throwing', async () => {
    const result = await withDeadline(1000, () => Promise.reject(new Error('boom')));
    expect(result).toMatchObject({ status: 'error', error: new Error('boom') });
  });
});

describe('withDeadline with no time left', () => {
  it.each([0, -100])('does not start the work at %d ms, and says timeout', async (ms) => {
    const work = jest.fn(() => Promise.resolve('cached'));
    await expect(withDeadline(ms, work)).resolves.toEqual({ status: 'timeout', ms: 0 });
    expect(work).not.toHaveBeenCalled();
  });
});
