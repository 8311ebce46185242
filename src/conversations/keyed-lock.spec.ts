import { KeyedLock } from './keyed-lock';

describe('KeyedLock', () => {
  it('runs work on one key one at a time, in arrival order, and other keys alongside', async () => {
    const sut = new KeyedLock();
    const log: string[] = [];
    let releaseFirst!: () => void;
    const first = sut.run(['a'], async () => {
      log.push('a1 start');
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      log.push('a1 end');
    });
    const second = sut.run(['a'], () => Promise.resolve(log.push('a2')));
    const other = sut.run(['b'], () => Promise.resolve(log.push('b')));
    await other;
    expect(log).toEqual(['a1 start', 'b']);
    releaseFirst();
    await Promise.all([first, second]);
    expect(log).toEqual(['a1 start', 'b', 'a1 end', 'a2']);
  });

  it('takes several keys in sorted order, so crossed requests do not deadlock', async () => {
    const sut = new KeyedLock();
    const results = await Promise.all([
      sut.run(['x', 'y'], () => Promise.resolve(1)),
      sut.run(['y', 'x'], () => Promise.resolve(2)),
    ]);
    expect(results).toEqual([1, 2]);
  });

  it('releases the key when the work fails', async () => {
    const sut = new KeyedLock();
    await expect(sut.run(['k'], () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(sut.run(['k'], () => Promise.resolve('next'))).resolves.toBe('next');
  });
});
