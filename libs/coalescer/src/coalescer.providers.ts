import { Logger, type Provider } from '@nestjs/common';

import { type CoalescerConfig, resolveCoalescerConfig } from './coalescer.config';
import { COALESCER_CONFIG, COALESCER_STATE_STORE } from './coalescer.constants';
import { COALESCER_OPTIONS, type CoalescerModuleOptions } from './coalescer.module-definition';
import { type CoalescerStateStore } from './interfaces/coalescer-state-store.interface';
import { MemoryStateStore } from './memory/memory-state.store';
import { RedisStateStore } from './redis/redis-state.store';

/** Where per-call tails live. */
export type CoalescerStoreKind = 'memory' | 'redis';

/** Redis whenever a URL is configured, so replicas share state; memory otherwise. */
export function coalescerStoreKind(options: CoalescerModuleOptions): CoalescerStoreKind {
  return options.redisUrl ? 'redis' : 'memory';
}

/**
 * Builds the state store; the switch is exhaustive, so a new kind must be handled here. An
 * unreachable Redis at boot is logged, not fatal: the bridge answers without coalescing and
 * the client keeps reconnecting.
 */
export async function createCoalescerStateStore(
  options: CoalescerModuleOptions,
  config: CoalescerConfig = resolveCoalescerConfig(options),
): Promise<CoalescerStateStore> {
  const kind = coalescerStoreKind(options);
  switch (kind) {
    case 'memory':
      return new MemoryStateStore({ maxCalls: config.maxCalls, ttlMs: config.ttlMs });
    case 'redis': {
      const store = new RedisStateStore({
        url: options.redisUrl ?? '',
        maxTailChars: config.maxTailChars,
        commandTimeoutMs: config.redisTimeoutMs,
      });
      if (!(await store.waitUntilReady(config.redisConnectTimeoutMs))) {
        // The URL may hold a password: log the error code only.
        new Logger('CoalescerModule').warn(
          `Redis not reachable at boot (${store.lastError?.message ?? 'timeout'}); ` +
            'transcripts are not coalesced until it is',
        );
      }
      return store;
    }
  }
}

export const coalescerProviders: Provider[] = [
  { provide: COALESCER_CONFIG, inject: [COALESCER_OPTIONS], useFactory: resolveCoalescerConfig },
  {
    provide: COALESCER_STATE_STORE,
    inject: [COALESCER_OPTIONS, COALESCER_CONFIG],
    useFactory: createCoalescerStateStore,
  },
];
