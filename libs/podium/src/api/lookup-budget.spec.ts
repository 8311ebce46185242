import { Logger } from '@nestjs/common';

import { type FakePodium, startFakePodium } from '../../../../test/fakes/podium-server';
import { ApiPodiumContacts } from './api-podium-contacts';
import { MemoryContactCache } from './cache/memory-contact-cache';
import { LookupBudget, PodiumLookupBudgetError } from './lookup-budget';
import { resolvePodiumApiOptions } from './podium-api.options';

describe('LookupBudget', () => {
  it('gives each caller its own lookups per minute, and a new minute a new budget', () => {
    let now = 0;
    const sut = new LookupBudget(3, () => now);
    expect([1, 2, 3, 4].map(() => sut.take('tenant-a'))).toEqual([true, true, true, false]);
    expect(sut.take('tenant-b')).toBe(true); // another tenant is untouched
    now += 60_000;
    expect(sut.take('tenant-a')).toBe(true);
  });
});

describe('ApiPodiumContacts lookups per caller (against the loopback Podium)', () => {
  let podium: FakePodium;
  let sut: ApiPodiumContacts;
  const clock = Date.now();

  beforeEach(async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    podium = await startFakePodium();
    const options = resolvePodiumApiOptions({
      baseUrl: podium.baseUrl,
      tokenUrl: podium.tokenUrl,
      clientId: podium.clientId,
      clientSecret: podium.clientSecret,
      refreshToken: podium.refreshToken,
      lookupsPerCallerPerMinute: 5,
    });
    sut = new ApiPodiumContacts(options, {
      cache: new MemoryContactCache({ maxEntries: 100, perf: { now: () => clock } }),
      now: () => clock,
    });
  });
  afterEach(async () => {
    await sut.onModuleDestroy();
    jest.restoreAllMocks();
    await podium.close();
  });

  it('stops sending a bound caller made-up contact ids past its budget; others still look up', async () => {
    for (let i = 0; i < 5; i++) {
      await expect(sut.getContact(`made-up-${i}`, undefined, 'loc-a')).resolves.toEqual({
        status: 'not_found',
      });
    }
    // Old code: every made-up id is one more request against the organisation's quota.
    await expect(sut.getContact('made-up-5', undefined, 'loc-a')).rejects.toBeInstanceOf(
      PodiumLookupBudgetError,
    );
    expect(podium.contactRequests).toHaveLength(5);
    // A cached answer costs nothing; another tenant and unscoped callers are not charged.
    await expect(sut.getContact('made-up-0', undefined, 'loc-a')).resolves.toEqual({
      status: 'not_found',
    });
    await sut.getContact('made-up-6', undefined, 'loc-b');
    await sut.getContact('made-up-7');
    expect(podium.contactRequests).toHaveLength(7);
  });
});
