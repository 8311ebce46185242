import { ConfigurableModuleBuilder } from '@nestjs/common';

/** Options for {@link RedisModule}; without a `url` the process has no Redis at all. */
export interface RedisModuleOptions {
  /** `REDIS_URL`; may hold a password, so it is never logged. */
  url?: string;
  /**
   * Ceiling on any one command (default 250 ms): it only stops a hung Redis from piling up
   * commands. Each consumer bounds its own commands tighter with `withCommandTimeout`.
   */
  commandTimeoutMs?: number;
}

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: REDIS_OPTIONS } =
  new ConfigurableModuleBuilder<RedisModuleOptions>()
    .setClassMethodName('forRoot')
    .setExtras({ isGlobal: true }, (def, extras) => ({ ...def, global: extras.isGlobal }))
    .build();
