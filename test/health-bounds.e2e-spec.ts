import { Database } from '@app/database';

import { READY_PROBES_PER_SECOND } from '../src/health/probe-budget';
import { bootTestApp, type TestApp } from './support/app';

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

  it('refuses a flood from one address with 429 probe_rate_limited; liveness still answers', async () => {
    const flood = Array.from({ length: 2 * READY_PROBES_PER_SECOND }, () =>
      fetch(`${t.url}/health/ready`),
    );
    const live = await fetch(`${t.url}/health/live`);
    const replies = await Promise.all(flood);
    expect(live.status).toBe(200);
    const refused = replies.filter((r) => r.status === 429);
    // Old code: every probe answered 200, however many.
    expect(refused.length).toBeGreaterThan(0);
    expect(replies.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    for (const reply of refused) {
      expect(reply.headers.get('retry-after')).toBe('1');
      expect(await reply.json()).toMatchObject({ error: 'probe_rate_limited', status: 429 });
    }
  });
});
