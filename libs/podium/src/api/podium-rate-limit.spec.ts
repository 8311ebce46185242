import { PodiumRateLimitedError } from './podium-api.errors';
import { PodiumRateLimit } from './podium-rate-limit';

describe('PodiumRateLimit', () => {
  let clock: number;
  const build = (maxRetryWaitMs = 500) => new PodiumRateLimit(maxRetryWaitMs, () => clock);

  beforeEach(() => {
    clock = 1_000_000;
  });

  it('is inactive until a 429 is noted, and lets calls through at once', async () => {
    const sut = build();
    expect(sut.active).toBe(false);
    await expect(sut.waitOut()).resolves.toBeUndefined();
  });

  it('says whether a retry fits the budget, and stays active until the wait is over', () => {
    const sut = build(500);
    expect(sut.note(500)).toBe(true);
    expect(sut.note(501)).toBe(false);
    expect(sut.active).toBe(true);
    clock += 500;
    expect(sut.active).toBe(true);
    clock += 1;
    expect(sut.active).toBe(false);
  });

  it('keeps the later of two waits: a short 429 never shortens a long one', () => {
    const sut = build();
    sut.note(10_000);
    sut.note(10);
    clock += 5_000;
    expect(sut.active).toBe(true);
  });

  it('fails fast, without sleeping, when the remaining wait exceeds the budget', async () => {
    const sut = build(500);
    sut.note(60_000);
    // No signal: a sleep here would hold the test for a minute.
    await expect(sut.waitOut()).rejects.toBeInstanceOf(PodiumRateLimitedError);
    clock += 59_600;
    const pending = new AbortController();
    const waiting = sut.waitOut(pending.signal);
    pending.abort();
    await expect(waiting).rejects.toBeInstanceOf(PodiumRateLimitedError);
  });

  it('reports a back-off cut short by the caller as the rate limit, not an abort', async () => {
    const sut = build();
    const caller = new AbortController();
    const waiting = sut.backOff(10_000, caller.signal);
    caller.abort(new Error('deadline'));
    await expect(waiting).rejects.toBeInstanceOf(PodiumRateLimitedError);
  });
});
