import { ConfigurationError } from '@app/common';
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

  it('uses Redis given a URL, and closes the connection on application shutdown', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [CoalescerModule.forRoot({ redisUrl: redis.url, tailWords: 6 })],
    }).compile();
    const store = moduleRef.get<RedisStateStore>(COALESCER_STATE_STORE);
    expect(store).toBeInstanceOf(RedisStateStore);
    expect(store.status).toBe('ready');

    await moduleRef.close();
    expect(store.status).toBe('end');
  });

  it('fails at boot on invalid options', async () => {
    await expect(
      Test.createTestingModule({ imports: [CoalescerModule.forRoot({ tailWords: -1 })] }).compile(),
    ).rejects.toThrow(ConfigurationError);
  });
});
