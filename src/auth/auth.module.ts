import { RedisConnection } from '@app/redis';
import { Global, Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import {
  getOptionsToken,
  getStorageToken,
  type ThrottlerStorage,
  ThrottlerStorageService,
} from '@nestjs/throttler';

import { APP_CONFIG } from '../config/app-config';
import { ApiKeyService } from './api-key.service';
import { ChatIdentityGuard } from './chat-identity.guard';
import { ChatTokenVerifier } from './chat-token.verifier';
import { DatabaseScopeInterceptor } from './database-scope.interceptor';
import { RateLimiter, throttlerOptions } from './rate-limiter';
import { RedisThrottlerStorage } from './redis-throttler.storage';
import { ServiceAuthGuard } from './service-auth.guard';

/**
 * Service authentication (API keys, global guard), rate limits and chat identity. Global so
 * that `@UseGuards(ChatIdentityGuard)` resolves in any module. Counters live in Redis when
 * REDIS_URL is set (limits hold across replicas), else in each replica's memory.
 */
@Global()
@Module({
  providers: [
    ApiKeyService,
    ChatTokenVerifier,
    ChatIdentityGuard,
    {
      provide: getStorageToken(),
      inject: [RedisConnection],
      useFactory: ({ client }: RedisConnection): ThrottlerStorage =>
        client ? new RedisThrottlerStorage(client) : new ThrottlerStorageService(),
    },
    {
      provide: getOptionsToken(),
      inject: [APP_CONFIG, getStorageToken()],
      useFactory: throttlerOptions,
    },
    RateLimiter,
    { provide: APP_GUARD, useClass: ServiceAuthGuard },
    { provide: APP_INTERCEPTOR, useClass: DatabaseScopeInterceptor },
  ],
  exports: [ApiKeyService, ChatTokenVerifier, ChatIdentityGuard, RateLimiter],
})
export class AuthModule {}
