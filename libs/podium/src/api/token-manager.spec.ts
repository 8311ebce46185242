import { Logger } from '@nestjs/common';

import { type FakePodium, startFakePodium } from '../../../../test/fakes/podium-server';
import { waitUntil } from '../../../../test/support/wait';
import { PodiumAuthError } from '../interfaces/podium-contacts.interface';
import { PodiumUnavailableError } from './podium-api.errors';
import { type RefreshTokenStore } from './refresh-token-store';
import { PodiumTokenManager, type PodiumTokenManagerOptions } from './token-manager';

describe('PodiumTokenManager (against the loopback Podium token endpoint)', () => {
  let podium: FakePodium;
  let clock: number;
  const logged: string[] = [];

  const manager = (overrides: Partial<PodiumTokenManagerOptions> = {}) =>
    new PodiumTokenManager({
      tokenUrl: podium.tokenUrl,
      clientId: podium.clientId,
      clientSecret: podium.clientSecret,
      refreshToken: podium.refreshToken,
      refreshSkewMs: 60_000,
      requestTimeoutMs: 2_000,
      retryRejectedAfterMs: 10_000,
      now: () => clock,
      ...overrides,
    });

  beforeEach(async () => {
    clock = 1_000_000;
    // Rotation on: a manager that kept the old refresh token would fail its second refresh.
    podium = await startFakePodium({ rotateRefreshTokens: true });
    logged.length = 0;
    for (const level of ['log', 'warn', 'error', 'debug', 'verbose'] as const) {
      jest.spyOn(Logger.prototype, level).mockImplementation((...args: unknown[]) => {
        logged.push(args.map(String).join(' '));
      });
    }
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await podium.close();
  });

  it('makes exactly one refresh for 50 concurrent callers', async () => {
    podium.tokenDelayMs = 30;
    const sut = manager();
    const tokens = await Promise.all(Array.from({ length: 50 }, () => sut.accessToken()));
    expect(podium.tokenRequests).toBe(1);
    expect(new Set(tokens).size).toBe(1);
    expect(sut.tokenRequests).toBe(1);
  });

  it('reuses the token until the skew window, then refreshes in the background', async () => {
    podium.accessTokenTtlS = 600; // 10 min; skew 60 s
    const sut = manager();
    const first = await sut.accessToken();
    clock += 539_000; // 1 s before the skew window
    expect(await sut.accessToken()).toBe(first);
    expect(podium.tokenRequests).toBe(1);

    clock += 2_000; // inside the window, token still valid: served at once, refreshed behind
    const during = await Promise.all([sut.accessToken(), sut.accessToken(), sut.accessToken()]);
    expect(during).toEqual([first, first, first]);
    // Asking again while the refresh is out joins it; once it lands, the new token is served.
    await waitUntil('a new token', async () => (await sut.accessToken()) !== first, 2000);
    expect(podium.tokenRequests).toBe(2); // one background refresh for all of them
  });

  it('waits for a refresh once the token has expired, with the rotated refresh token', async () => {
    podium.accessTokenTtlS = 600;
    const sut = manager();
    const first = await sut.accessToken();
    clock += 601_000;
    const second = await sut.accessToken();
    expect(second).not.toBe(first);
    clock += 601_000;
    const third = await sut.accessToken();
    expect(third).not.toBe(second);
    expect(podium.tokenRefreshes).toBe(3); // each with the token the previous one rotated in
  });

  it('renews once for a burst of 401s on the same token, and not for a stale one', async () => {
    const sut = manager();
    const first = await sut.accessToken();
    podium.tokenDelayMs = 20;
    const renewed = await Promise.all(Array.from({ length: 50 }, () => sut.renew(first)));
    expect(new Set(renewed).size).toBe(1);
    expect(renewed[0]).not.toBe(first);
    expect(podium.tokenRequests).toBe(2);
    // A straggler whose 401 was for the old token gets the new one without a refresh.
    expect(await sut.renew(first)).toBe(renewed[0]);
    expect(podium.tokenRequests).toBe(2);
  });

  it('marks itself rejected on invalid_grant, fails fast, and asks again after the cooldown', async () => {
    podium.rejectRefreshTokens = true;
    const sut = manager({ retryRejectedAfterMs: 5_000 });
    await expect(sut.accessToken()).rejects.toBeInstanceOf(PodiumAuthError);
    expect(sut.rejected).toBe(true);
    await expect(sut.accessToken()).rejects.toBeInstanceOf(PodiumAuthError);
    expect(podium.tokenRequests).toBe(1);

    podium.rejectRefreshTokens = false;
    clock += 5_000;
    await expect(sut.accessToken()).resolves.toMatch(/^pat_/);
    expect(sut.rejected).toBe(false);
    expect(podium.tokenRequests).toBe(2);
  });

  it('treats wrong client credentials (401 invalid_client) as a rejection too', async () => {
    const sut = manager({ clientSecret: 'wrong' });
    await expect(sut.accessToken()).rejects.toBeInstanceOf(PodiumAuthError);
    expect(sut.rejected).toBe(true);
  });

  it('reports an unreachable token endpoint as unavailable, not as a rejection', async () => {
    const sut = manager({ tokenUrl: 'http://127.0.0.1:9/oauth/token' });
    await expect(sut.accessToken()).rejects.toBeInstanceOf(PodiumUnavailableError);
    expect(sut.rejected).toBe(false);
  });

  it('lets a caller leave at its deadline while the shared refresh carries on', async () => {
    podium.tokenDelayMs = 300;
    const sut = manager();
    const shared = sut.accessToken();
    await expect(sut.accessToken(AbortSignal.timeout(30))).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    await expect(shared).resolves.toMatch(/^pat_/);
    expect(podium.tokenRequests).toBe(1);
  });

  /** The store's contract in memory: one row, valid for the chain of the seed it was saved under. */
  const memoryStore = () => {
    const row: { seed?: string; token?: string } = {};
    const store: RefreshTokenStore = {
      load: (seed) => Promise.resolve(row.seed === seed ? row.token : undefined),
      save: (seed, token) => {
        Object.assign(row, { seed, token });
        return Promise.resolve();
      },
    };
    return { store, row };
  };

  it('persists a rotated refresh token, so a restart starts from it instead of a retired one', async () => {
    const { store, row } = memoryStore();
    await manager({ store }).accessToken();
    expect(row.token).toEqual(expect.any(String));
    expect(row.token).not.toBe(podium.refreshToken);

    // The configured token was retired by that rotation: without the store a restart is rejected.
    await expect(manager().accessToken()).rejects.toBeInstanceOf(PodiumAuthError);
    const restarted = manager({ store });
    await expect(restarted.accessToken()).resolves.toEqual(expect.any(String));
    expect(restarted.rejected).toBe(false);
  });

  it('on a rejection re-reads the store, adopting a token another replica rotated', async () => {
    const { store } = memoryStore();
    const a = manager({ store });
    const b = manager({ store });
    await a.accessToken();
    await expect(b.accessToken()).resolves.toEqual(expect.any(String)); // read at its first refresh
    await b.renew(await b.accessToken()); // b rotates: a's token is retired now
    await expect(a.renew(await a.accessToken())).resolves.toEqual(expect.any(String));
    expect(a.rejected).toBe(false);
  });

  it('never logs a token or the client secret', async () => {
    podium.accessTokenTtlS = 600;
    const sut = manager();
    await sut.accessToken();
    clock += 601_000;
    await sut.accessToken(); // rotation is logged
    podium.rejectRefreshTokens = true;
    clock += 601_000;
    await expect(sut.accessToken()).rejects.toBeInstanceOf(PodiumAuthError);
    expect(logged.length).toBeGreaterThan(0);
    const text = logged.join('\n');
    for (const secret of [...podium.issuedSecrets(), podium.clientSecret]) {
      expect(text).not.toContain(secret);
    }
  });
});
