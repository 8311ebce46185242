import { Module } from '@nestjs/common';

import { RedisConnection } from './redis-connection';
import { ConfigurableModuleClass } from './redis.module-definition';

/**
 * One Redis client per process, for every module that shares state between replicas. Without
 * a URL, {@link RedisConnection.client} is `undefined` and those modules keep state in memory.
 */
@Module({ providers: [RedisConnection], exports: [RedisConnection] })
export class RedisModule extends ConfigurableModuleClass {}
