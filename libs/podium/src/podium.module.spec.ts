import { ConfigurationError } from '@app/common';
import { type Database } from '@app/database';
import { RedisConnection } from '@app/redis';
import { Redis } from 'ioredis';

import { startRedis } from '../../../test/support/redis';
import { ApiPodiumContacts } from './api/api-podium-contacts';
import { LocalPodiumContacts } from './local/local-podium-contacts';
import { NonePodiumContacts } from './none/none-podium-contacts';
import { createPodiumContacts, type PodiumModuleOptions } from './podium.module';

/** The factory never touches the database for `api`; `local` only stores it. */
const database = {} as Database;

const API: PodiumModuleOptions = {
  provider: 'api',
  baseUrl: 'http://127.0.0.1:9/v4',
  tokenUrl: 'http://127.0.0.1:9/oauth/token',
  clientId: 'id',
  clientSecret: 'secret',
  refreshToken: 'refresh',
  cacheTtlMs: 30_000,
};

describe('createPodiumContacts', () => {
  it('builds the local provider', async () => {
    await expect(createPodiumContacts({ provider: 'local' }, database)).resolves.toBeInstanceOf(
      LocalPodiumContacts,
    );
  });

  it('builds none without credentials or a database: no contact has live fields, by design', async () => {
    // A throwing database: `none` must never reach for one.
    const untouchable = new Proxy({} as Database, {
      get: () => {
        throw new Error('none touched the database');
      },
    });
    const sut = await createPodiumContacts({ provider: 'none' }, untouchable);
    expect(sut).toBeInstanceOf(NonePodiumContacts);
    await expect(sut.getContact('ctc_1')).resolves.toEqual({ status: 'not_configured' });
    await expect(sut.status()).resolves.toEqual({ status: 'not_configured' });
    await expect(sut.isHealthy()).resolves.toBe(true);
  });

  it('builds the api provider from the options, healthy before any call', async () => {
    const sut = await createPodiumContacts(API, database);
    expect(sut).toBeInstanceOf(ApiPodiumContacts);
    await expect(sut.status()).resolves.toEqual({ status: 'up' });
    await (sut as ApiPodiumContacts).onModuleDestroy();
  });

  it('refuses to build api without credentials, naming each missing one', async () => {
    const built = createPodiumContacts(
      { ...API, clientSecret: undefined, refreshToken: '' },
      database,
    );
    await expect(built).rejects.toBeInstanceOf(ConfigurationError);
    await expect(built).rejects.toThrow(/needs clientSecret, refreshToken/);
  });

  it('caches in the process’s Redis when it has one', async () => {
    const redis = await startRedis();
    const raw = new Redis(redis.url);
    const connection = new RedisConnection({ url: redis.url });
    try {
      const sut = (await createPodiumContacts(API, database, connection)) as ApiPodiumContacts;
      await raw.sadd('cb:podium:alias:u-1', 'k');
      await raw.set('cb:podium:contact:k', '{}');
      await sut.invalidate('u-1'); // goes through the Redis cache
      expect(await raw.exists('cb:podium:contact:k', 'cb:podium:alias:u-1')).toBe(0);
      await sut.onModuleDestroy();
    } finally {
      await connection.close();
      await raw.quit();
      await redis.stop();
    }
  });
});
