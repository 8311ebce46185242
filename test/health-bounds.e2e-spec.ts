import { Database } from '@app/database';

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
});
