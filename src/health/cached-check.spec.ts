import { CachedCheck } from './cached-check';

describe('CachedCheck', () => {
  let now: number;
  let probes: number;
  let sut: CachedCheck<string>;

  beforeEach(() => {
    now = 0;
    probes = 0;
    sut = new CachedCheck(
      () => Promise.resolve(`result ${++probes}`),
      1000,
      () => now,
    );
  });

  it('answers a flood of calls within the window with one probe', async () => {
    const answers = await Promise.all(Array.from({ length: 1000 }, () => sut.get()));
    now = 999;
    answers.push(await sut.get());
    expect(new Set(answers)).toEqual(new Set(['result 1']));
    expect(probes).toBe(1);
  });

  it('probes again once the window has passed', async () => {
    await sut.get();
    now = 1000;
    expect(await sut.get()).toBe('result 2');
  });

  it('shares a probe still running with every caller that arrives meanwhile', async () => {
    let finish!: (value: string) => void;
    const slow = new CachedCheck(
      () => new Promise<string>((resolve) => ((probes += 1), (finish = resolve))),
      1000,
      () => now,
    );
    const first = slow.get();
    const second = slow.get();
    finish('done');
    expect(await Promise.all([first, second])).toEqual(['done', 'done']);
    expect(probes).toBe(1);
  });
});
