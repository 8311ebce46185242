import { RedisConnection } from '@app/redis';
import { Logger, type Provider } from '@nestjs/common';

import { type CoalescerConfig, resolveCoalescerConfig } from './coalescer.config';
import { COALESCER_CONFIG, COALESCER_STATE_STORE } from './coalescer.constants';
import { COALESCER_OPTIONS, type CoalescerModuleOptions } from './coalescer.module-definition';
import { type CoalescerStateStore } from './interfaces/coalescer-state-store.interface';
import { MemoryStateStore } from './memory/memory-state.store';
import { RedisStateStore } from './redis/redis-state.store';

/**
 * Builds the state store: Redis when the process has one (replicas share each call's tail),
 * memory otherwise. An unreachable Redis at boot is logged, not fatal: the bridge answers
 * without coalescing and the client keeps reconnecting.
 */
export async function createCoalescerStateStore(
  options: CoalescerModuleOptions,
  config: CoalescerConfig = resolveCoalescerConfig(options),
  connection?: RedisConnection,
): Promise<CoalescerStateStore> {
  const redis = connection?.client;
  if (!connection || !redis) {
    return new MemoryStateStore({ maxCalls: config.maxCalls, ttlMs: config.ttlMs });
  }
  const store = new RedisStateStore({
    redis,
    maxTailChars: config.maxTailChars,
    commandTimeoutMs: config.redisTimeoutMs,
  });
  if (!(await connection.waitUntilReady(config.redisConnectTimeoutMs))) {
    // The URL may hold a password: log the error text only.
    new Logger('CoalescerModule').warn(
      `Redis not reachable at boot (${connection.lastError?.message ?? 'timeout'}); ` +
        'transcripts are not coalesced until it is',
    );
  }
  return store;
}

export const coalescerProviders: Provider[] = [
  { provide: COALESCER_CONFIG, inject: [COALESCER_OPTIONS], useFactory: resolveCoalescerConfig },
  {
    provide: COALESCER_STATE_STORE,
    // Optional: without RedisModule (a test, a single process) the state stays in memory.
    inject: [COALESCER_OPTIONS, COALESCER_CONFIG, { token: RedisConnection, optional: true }],
    useFactory: createCoalescerStateStore,
  },
];
