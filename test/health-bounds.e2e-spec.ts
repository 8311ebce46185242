import { Database } from '@app/database';
import { HealthCheckService } from '@nestjs/terminus';

import { READY_PROBES_PER_SECOND } from '../src/health/probe-budget';
import { bootTestApp, type TestApp } from './support/app';
import { waitUntil } from './support/wait';

describe('/health/ready under a flood of probes (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t?.close());

  it('answers 50 concurrent probes with a shared result, not 50 database round trips', async () => {
    const checks = jest.spyOn(t.app.get(Database), 'check');
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => fetch(`${t.url}/health/ready`)),
    );
    expect(replies.every((r) => r.status === 200)).toBe(true);
    // One probe per second is shared; old code: one per call (50).
    expect(checks.mock.calls.length).toBeLessThan(5);
  });

  it('answers a flood from one address past its budget with the last answer, no check run; liveness still answers', async () => {
    await fetch(`${t.url}/health/ready`); // an answer to replay
    const checks = jest.spyOn(t.app.get(HealthCheckService), 'check');
    const flood = Array.from({ length: 3 * READY_PROBES_PER_SECOND }, () =>
      fetch(`${t.url}/health/ready`),
    );
    const live = await fetch(`${t.url}/health/live`);
    const replies = await Promise.all(flood);
    expect(live.status).toBe(200);
    // Never a refusal the load balancer would count against this replica (old code: 429s).
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
    const bodies = await Promise.all(replies.map((r) => r.json()));
    expect(bodies.every((b) => (b as { status?: string }).status === 'ok')).toBe(true);
    // Past the budget no check runs: at most one budget per second the flood spans.
    expect(checks.mock.calls.length).toBeLessThanOrEqual(2 * READY_PROBES_PER_SECOND);
    checks.mockRestore();
  });

  it('replays a 503 too: a replica that is not ready stays out of rotation under a flood', async () => {
    const store = t.app.get(Database);
    const down = jest
      .spyOn(store, 'check')
      .mockResolvedValue({ up: false, reason: 'the database did not answer within 2000 ms' });
    try {
      // Once the storage check's one-second cache runs out, readiness says so.
      await waitUntil('readiness down', async () => {
        return (await fetch(`${t.url}/health/ready`)).status === 503;
      });
      const replies = await Promise.all(
        Array.from({ length: 2 * READY_PROBES_PER_SECOND }, () => fetch(`${t.url}/health/ready`)),
      );
      expect(new Set(replies.map((r) => r.status))).toEqual(new Set([503]));
    } finally {
      down.mockRestore();
    }
  });
});
