import { Logger } from '@nestjs/common';

import { type AppConfig } from '../config/app-config';
import { TracingModule } from './tracing.module';

const withKey = (hashKey?: string) =>
  ({ telemetry: { enabled: false, serviceName: 'x', hashKey } }) as AppConfig;

describe('TracingModule', () => {
  afterEach(() => jest.restoreAllMocks());

  it('warns once at boot that hashes are per process when TELEMETRY_HASH_KEY is unset', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    new TracingModule(withKey()).onApplicationBootstrap();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(/TELEMETRY_HASH_KEY is not set/);
  });

  it('says nothing when a key is configured', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    new TracingModule(withKey('k'.repeat(32))).onApplicationBootstrap();
    expect(warn).not.toHaveBeenCalled();
  });
});
