import { sleep } from './abort';
import {
  BACKGROUND_DUTY,
  BackgroundPacer,
  LIVE_QUIET_MS,
  LiveTraffic,
  MAX_REST_MS,
} from './live-traffic';

describe('LiveTraffic', () => {
  let now: number;
  let sut: LiveTraffic;

  beforeEach(() => {
    now = 0;
    sut = new LiveTraffic(() => now);
  });

  it('is present while a call is in flight and for LIVE_QUIET_MS after the last one', () => {
    expect(sut.present).toBe(false);
    const leave = sut.enter();
    now = 10 * LIVE_QUIET_MS;
    expect(sut.present).toBe(true); // however long the call runs
    leave();
    leave(); // a second leave does not count twice
    now += LIVE_QUIET_MS - 1;
    expect(sut.present).toBe(true);
    now += 1;
    expect(sut.present).toBe(false);
    expect(sut.calls).toBe(1);
  });

  it('stays present while any of several overlapping calls runs', () => {
    const first = sut.enter();
    const second = sut.enter();
    first();
    now = 10 * LIVE_QUIET_MS;
    expect(sut.present).toBe(true);
    second();
    now += LIVE_QUIET_MS;
    expect(sut.present).toBe(false);
  });
});

describe('BackgroundPacer', () => {
  let live: LiveTraffic;
  let sut: BackgroundPacer;
  const started: number[] = [];
  /** A unit of work that takes `ms` of the fake clock. */
  const unit = (ms: number) => async () => {
    started.push(Date.now());
    await sleep(ms);
  };

  beforeEach(() => {
    jest.useFakeTimers({ now: 0 });
    live = new LiveTraffic(() => Date.now());
    sut = new BackgroundPacer(live, BACKGROUND_DUTY, () => Date.now());
    started.length = 0;
  });
  afterEach(() => jest.useRealTimers());

  it('runs back to back without live traffic', async () => {
    const done = Promise.all([sut.run(unit(100)), sut.run(unit(100))]);
    await jest.advanceTimersByTimeAsync(100);
    await done;
    const third = sut.run(unit(100));
    await jest.advanceTimersByTimeAsync(100);
    await third;
    expect(started).toEqual([0, 0, 100]);
  });

  it('while live traffic is present, rests (1 / duty - 1) times the last unit before the next', async () => {
    const leave = live.enter();
    const first = sut.run(unit(100));
    await jest.advanceTimersByTimeAsync(100);
    await first;
    const second = sut.run(unit(10));
    const rest = 100 * (1 / BACKGROUND_DUTY - 1);
    await jest.advanceTimersByTimeAsync(rest - 1);
    expect(started).toEqual([0]); // still resting
    await jest.advanceTimersByTimeAsync(11);
    await second;
    expect(started).toEqual([0, 100 + rest]);
    leave();
  });

  it('never rests longer than MAX_REST_MS, and counts a failed unit like any other', async () => {
    const leave = live.enter();
    const failing = sut.run(async () => {
      await sleep(60_000);
      throw new Error('unit failed');
    });
    const outcome = failing.catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(await outcome).toEqual(new Error('unit failed'));
    const next = sut.run(unit(1));
    await jest.advanceTimersByTimeAsync(MAX_REST_MS + 1);
    await next;
    expect(started).toEqual([60_000 + MAX_REST_MS]);
    leave();
  });

  it('while live traffic is present, runs one unit at a time, each after the rest of the last', async () => {
    const leave = live.enter();
    const units = [sut.run(unit(100)), sut.run(unit(100)), sut.run(unit(100))];
    await jest.advanceTimersByTimeAsync(100);
    expect(started).toEqual([0]); // the others wait for it, then for its rest
    await jest.advanceTimersByTimeAsync(300 + 100 + 300 + 100);
    await Promise.all(units);
    expect(started).toEqual([0, 400, 800]);
    leave();
  });

  it('waits at most MAX_REST_MS for a long unit, so a forget is not held behind a long ingestion', async () => {
    const leave = live.enter();
    const long = sut.run(unit(60_000));
    const short = sut.run(unit(10));
    await jest.advanceTimersByTimeAsync(MAX_REST_MS + 10);
    await short;
    expect(started).toEqual([0, MAX_REST_MS]);
    await jest.advanceTimersByTimeAsync(60_000);
    await long;
    leave();
  });
});
