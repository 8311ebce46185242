import { Logger } from '@nestjs/common';

import {
  PodiumCallerDeadlineError,
  PodiumCircuitOpenError,
  PodiumRateLimitedError,
  PodiumUnavailableError,
} from './podium-api.errors';
import { PodiumBreaker } from './podium-breaker';

describe('PodiumBreaker', () => {
  const build = () => new PodiumBreaker({ breakerFailures: 2, breakerCooldownMs: 60_000 });
  const unavailable = () => Promise.reject(new PodiumUnavailableError('HTTP 503'));

  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('opens after breakerFailures unavailable answers, then fails fast without calling', async () => {
    const sut = build();
    await expect(sut.run(unavailable)).rejects.toBeInstanceOf(PodiumUnavailableError);
    expect(sut.closed).toBe(true);
    await expect(sut.run(unavailable)).rejects.toBeInstanceOf(PodiumUnavailableError);
    expect(sut.closed).toBe(false);
    const work = jest.fn(() => Promise.resolve('found'));
    await expect(sut.run(work)).rejects.toBeInstanceOf(PodiumCircuitOpenError);
    expect(work).not.toHaveBeenCalled();
  });

  it('does not count Podium answering (a 429) against it', async () => {
    const sut = build();
    for (let i = 0; i < 3; i++) {
      await expect(
        sut.run(() => Promise.reject(new PodiumRateLimitedError())),
      ).rejects.toBeInstanceOf(PodiumRateLimitedError);
    }
    expect(sut.closed).toBe(true);
  });

  it('turns a short caller deadline into PodiumCallerDeadlineError, which does not count', async () => {
    const sut = build();
    const caller = new AbortController();
    caller.abort();
    const aborted = () => Promise.reject(new DOMException('aborted', 'AbortError'));
    for (let i = 0; i < 3; i++) {
      await expect(sut.run(aborted, caller.signal)).rejects.toBeInstanceOf(
        PodiumCallerDeadlineError,
      );
    }
    expect(sut.closed).toBe(true);
  });

  it('counts a deadline that outlasted the evidence threshold as Podium not answering', async () => {
    const sut = build();
    const caller = new AbortController();
    caller.abort();
    let now = 0;
    jest.spyOn(performance, 'now').mockImplementation(() => now);
    const slow = () => {
      now += 1_000; // the request ran a second before the caller gave up
      return Promise.reject(new DOMException('aborted', 'AbortError'));
    };
    await expect(sut.run(slow, caller.signal)).rejects.toBeInstanceOf(PodiumUnavailableError);
    await expect(sut.run(slow, caller.signal)).rejects.toBeInstanceOf(PodiumUnavailableError);
    expect(sut.closed).toBe(false);
  });
});
