import { Inject, Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';

import { startRedis, type TestRedis } from '../../../test/support/redis';
import { RedisModule } from './redis.module';
import { RedisCommandTimeoutError, RedisConnection, withCommandTimeout } from './redis-connection';

/** Two consumers in different modules, as the coalescer and the contact cache are. */
@Injectable()
class ConsumerA {
  constructor(@Inject(RedisConnection) readonly redis: RedisConnection) {}
}
@Injectable()
class ConsumerB {
  constructor(@Inject(RedisConnection) readonly redis: RedisConnection) {}
}

describe('RedisModule', () => {
  let redis: TestRedis;

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.stop());

  it('gives every consumer the one client, and closes it once at shutdown', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [RedisModule.forRoot({ isGlobal: true, url: redis.url })],
      providers: [ConsumerA, ConsumerB],
    }).compile();
    const a = moduleRef.get(ConsumerA).redis;
    const b = moduleRef.get(ConsumerB).redis;
    expect(a.status).toBe('none'); // lazy: no socket until someone uses it
    expect(a.client).toBe(b.client);
    await expect(a.waitUntilReady(2000)).resolves.toBe(true);
    await expect(b.client?.ping()).resolves.toBe('PONG');

    await moduleRef.close();
    expect(a.status).toBe('end');
  });

  it('has no client without a URL', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [RedisModule.forRoot({ isGlobal: true })],
    }).compile();
    const sut = moduleRef.get(RedisConnection);
    expect(sut.client).toBeUndefined();
    await expect(sut.waitUntilReady(10)).resolves.toBe(false);
    await moduleRef.close();
  });
});

describe('withCommandTimeout', () => {
  it('passes the answer through when it comes in time', async () => {
    await expect(withCommandTimeout(50, Promise.resolve('OK'))).resolves.toBe('OK');
  });

  it('rejects after its own bound, and swallows the late failure of the command', async () => {
    let fail!: (error: Error) => void;
    const command = new Promise<string>((_resolve, reject) => (fail = reject));
    await expect(withCommandTimeout(10, command)).rejects.toBeInstanceOf(RedisCommandTimeoutError);
    fail(new Error('Command timed out')); // would be an unhandled rejection if not swallowed
    await new Promise((r) => setImmediate(r));
  });
});
