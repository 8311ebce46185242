import { configurableRootModule } from '@app/common';
import { Database } from '@app/database';
import { RedisConnection } from '@app/redis';
import { Logger, Module, type Provider } from '@nestjs/common';

import { ApiPodiumContacts } from './api/api-podium-contacts';
import { type ContactCache } from './api/cache/contact-cache';
import { MemoryContactCache } from './api/cache/memory-contact-cache';
import { RedisContactCache } from './api/cache/redis-contact-cache';
import {
  DEFAULT_PODIUM_API_OPTIONS,
  invalidationGuardMs,
  type PodiumApiOptions,
  resolvePodiumApiOptions,
} from './api/podium-api.options';
import { DatabaseRefreshTokenStore, parseTokenEncryptionKey } from './api/refresh-token-store';
import { PODIUM_CONTACTS, type PodiumContacts } from './interfaces/podium-contacts.interface';
import { registerLocalContactCache } from './local/local-contact-cache';
import { LocalPodiumContacts } from './local/local-podium-contacts';
import { NonePodiumContacts } from './none/none-podium-contacts';

/**
 * The CRMs `PODIUM_PROVIDER` accepts: the embedded contacts table, Podium's API, or none
 * (bundles carry history only).
 */
export const PODIUM_PROVIDERS = ['local', 'api', 'none'] as const;

/**
 * `provider` picks the implementation; the rest configures `api` (ignored by the others).
 * `clientId`, `clientSecret` and `refreshToken` are required for `api`.
 */
export interface PodiumModuleOptions extends Partial<PodiumApiOptions> {
  provider: (typeof PODIUM_PROVIDERS)[number];
  /**
   * AES-256 key (64 hex or base64 of 32 bytes) for keeping rotated refresh tokens in the
   * database; without it they live in memory only.
   */
  tokenEncryptionKey?: string;
  /**
   * False in a CLI process: Podium's token endpoint is never asked, so a one-off command
   * cannot rotate the refresh token the server holds (lookups then fail as auth-rejected;
   * cache invalidations still work).
   */
  tokenRefresh?: boolean;
}

const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN } =
  configurableRootModule<PodiumModuleOptions>();

/** How long boot waits for the cache's Redis before going on without it (misses until it is up). */
const REDIS_BOOT_WAIT_MS = 2000;

/** Picks the CRM implementation; exhaustive so a new provider must be handled. */
export async function createPodiumContacts(
  options: PodiumModuleOptions,
  database: Database,
  redis?: RedisConnection,
): Promise<PodiumContacts> {
  switch (options.provider) {
    case 'local': {
      const d = DEFAULT_PODIUM_API_OPTIONS;
      registerLocalContactCache(database, {
        ttlMs: Math.max(0, options.cacheTtlMs ?? d.cacheTtlMs),
        notFoundTtlMs: options.notFoundTtlMs ?? d.notFoundTtlMs,
        maxEntries: options.cacheMaxEntries ?? d.cacheMaxEntries,
      });
      return new LocalPodiumContacts(database);
    }
    case 'none':
      return new NonePodiumContacts();
    case 'api': {
      const resolved = resolvePodiumApiOptions(options);
      const key = options.tokenEncryptionKey
        ? parseTokenEncryptionKey(options.tokenEncryptionKey)
        : undefined;
      if (!key) {
        new Logger('PodiumModule').warn(
          'PODIUM_TOKEN_ENCRYPTION_KEY is not set: a refresh token Podium rotates is kept in ' +
            'memory only, so a restart may come up auth_rejected',
        );
      }
      return new ApiPodiumContacts(resolved, {
        cache: await createContactCache(resolved, redis),
        tokenStore: key && new DatabaseRefreshTokenStore(database, key),
        tokenRefresh: options.tokenRefresh,
      });
    }
  }
}

/** Redis when the process has one (replicas share it), memory otherwise; none when TTL is 0. */
async function createContactCache(
  options: ReturnType<typeof resolvePodiumApiOptions>,
  connection?: RedisConnection,
): Promise<ContactCache | undefined> {
  if (options.cacheTtlMs === 0) {
    return undefined;
  }
  const redis = connection?.client;
  if (!connection || !redis) {
    return new MemoryContactCache({
      maxEntries: options.cacheMaxEntries,
      guardMs: invalidationGuardMs(options),
    });
  }
  const cache = new RedisContactCache(redis, invalidationGuardMs(options));
  if (!(await connection.waitUntilReady(REDIS_BOOT_WAIT_MS))) {
    // The URL may hold a password: log the error name only.
    new Logger('PodiumModule').warn(
      `Redis not reachable at boot (${connection.lastError?.name ?? 'timeout'}); live contacts ` +
        'are not cached until it is',
    );
  }
  return cache;
}

const podiumContactsProvider: Provider = {
  provide: PODIUM_CONTACTS,
  // Optional: without RedisModule (a test, a single process) the cache stays in memory.
  inject: [MODULE_OPTIONS_TOKEN, Database, { token: RedisConnection, optional: true }],
  useFactory: createPodiumContacts,
};

/** The live CRM surface of the context bridge. */
@Module({ providers: [podiumContactsProvider], exports: [podiumContactsProvider] })
export class PodiumModule extends ConfigurableModuleClass {}
