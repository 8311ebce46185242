import { ConfigurationError } from '@app/common';
import { RedisConnection, RedisModule } from '@app/redis';
import { Test } from '@nestjs/testing';

import { startRedis, type TestRedis } from '../../../test/support/redis';
import { COALESCER_STATE_STORE } from './coalescer.constants';
import { CoalescerModule } from './coalescer.module';
import { MemoryStateStore } from './memory/memory-state.store';
import { RedisStateStore } from './redis/redis-state.store';
import { TranscriptCoalescer } from './transcript-coalescer';

describe('CoalescerModule', () => {
  let redis: TestRedis;

  beforeAll(async () => {
    redis = await startRedis();
  });

  afterAll(async () => {
    await redis.stop();
  });

  it('uses the in-memory store without a Redis URL', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [CoalescerModule.forRoot({ isGlobal: true })],
    }).compile();
    expect(moduleRef.get(COALESCER_STATE_STORE)).toBeInstanceOf(MemoryStateStore);
    const sut = moduleRef.get(TranscriptCoalescer);
    await sut.feed('call-1', 'my order number is');
    await expect(sut.feed('call-1', 'ABC-12345')).resolves.toMatchObject({
      query: 'my order number is ABC-12345',
    });
    await moduleRef.close();
  });

  it('uses the process’s Redis when RedisModule has a URL', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        RedisModule.forRoot({ isGlobal: true, url: redis.url }),
        CoalescerModule.forRoot({ tailWords: 6 }),
      ],
    }).compile();
    expect(moduleRef.get(COALESCER_STATE_STORE)).toBeInstanceOf(RedisStateStore);
    const connection = moduleRef.get(RedisConnection);
    expect(connection.status).toBe('ready');

    await moduleRef.close();
    expect(connection.status).toBe('end');
  });

  it('keeps state in memory when RedisModule has no URL', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [RedisModule.forRoot({ isGlobal: true }), CoalescerModule.forRoot({})],
    }).compile();
    expect(moduleRef.get(COALESCER_STATE_STORE)).toBeInstanceOf(MemoryStateStore);
    expect(moduleRef.get(RedisConnection).status).toBe('none');
    await moduleRef.close();
  });

  it('fails at boot on invalid options', async () => {
    await expect(
      Test.createTestingModule({ imports: [CoalescerModule.forRoot({ tailWords: -1 })] }).compile(),
    ).rejects.toThrow(ConfigurationError);
  });
});
