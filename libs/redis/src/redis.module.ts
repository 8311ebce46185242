import { Module } from '@nestjs/common';

import { ConfigurableModuleClass, REDIS_OPTIONS } from './redis.module-definition';
import { RedisConnection, type RedisModuleOptions } from './redis-connection';

/**
 * One Redis client per process, for every module that shares state between replicas. Without
 * a URL, {@link RedisConnection.client} is `undefined` and those modules keep state in memory.
 */
@Module({
  providers: [
    {
      provide: RedisConnection,
      inject: [REDIS_OPTIONS],
      useFactory: (options: RedisModuleOptions) => new RedisConnection(options),
    },
  ],
  exports: [RedisConnection],
})
export class RedisModule extends ConfigurableModuleClass {}
