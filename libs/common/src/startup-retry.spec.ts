import { Logger } from '@nestjs/common';

import { ConfigurationError, DependencyError } from './errors';
import { StartupRetry } from './startup-retry';

describe('StartupRetry', () => {
  const logger = new Logger('test');
  const unreachable = () => new DependencyError('down', 'server unreachable');

  beforeEach(() => {
    jest.useFakeTimers();
    jest.spyOn(logger, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.useRealTimers());

  it('does not fail the boot on an unreachable server, and retries until it is up', async () => {
    const failures: string[] = [];
    const sut = new StartupRetry(logger, { down: 'x down', failed: 'x failed' }, (e) =>
      failures.push(e.message),
    );
    const attempt = jest
      .fn<Promise<void>, []>()
      .mockRejectedValueOnce(unreachable())
      .mockRejectedValueOnce(unreachable())
      .mockResolvedValue(undefined);
    const then = jest.fn(() => Promise.resolve());

    await sut.run(attempt, then);
    expect(then).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(5000);
    await jest.advanceTimersByTimeAsync(5000);
    expect(attempt).toHaveBeenCalledTimes(3);
    expect(then).toHaveBeenCalledTimes(1);
    expect(failures).toEqual(['server unreachable', 'server unreachable']);
    await jest.advanceTimersByTimeAsync(20_000);
    expect(attempt).toHaveBeenCalledTimes(3);
  });

  it('fails the boot on anything that is not an unreachable server', async () => {
    const sut = new StartupRetry(logger, { down: 'x down', failed: 'x failed' });
    const wrong = new ConfigurationError('dimension mismatch');
    await expect(sut.run(() => Promise.reject(wrong))).rejects.toBe(wrong);
  });

  it('starts no attempt after stop', async () => {
    const sut = new StartupRetry(logger, { down: 'x down', failed: 'x failed' });
    const attempt = jest.fn(() => Promise.reject(unreachable()));
    await sut.run(attempt);
    sut.stop();
    await jest.advanceTimersByTimeAsync(20_000);
    expect(attempt).toHaveBeenCalledTimes(1);
  });
});
