import { Logger } from '@nestjs/common';

import { bootTestApp, postJson, type TestApp } from './support/app';

const CONTACT = '+15557654321';

/** SLOW_CALL_LOG_MS through the real app: the interceptor sees /context answers only. */
describe('slow /context call log (e2e)', () => {
  let t: TestApp;
  const warn = jest.spyOn(Logger.prototype, 'warn');
  const slowLines = () =>
    warn.mock.calls.map((c) => String(c[0])).filter((line) => line.startsWith('slow /context'));

  beforeAll(async () => {
    // 1 ms: every call is slow enough to be logged.
    t = await bootTestApp({ SLOW_CALL_LOG_MS: '1', TELEMETRY_HASH_KEY: 'e'.repeat(32) });
  });
  afterAll(async () => {
    warn.mockRestore();
    await t.close();
  });

  it('logs a slow call with its stages and the contact only as its hash', async () => {
    const res = await postJson<{ meta: { stages: Record<string, number> } }>(`${t.url}/context`, {
      transcript: 'my parcel from Elm Street never arrived',
      contact_uid: CONTACT,
    });
    expect(res.status).toBe(200);
    const lines = slowLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/contact h:[0-9a-f]{16} first-seen, partial (true|false)/);
    expect(lines[0]).toMatch(/stages intake@0\+[\d.]+ queue@/);
    for (const secret of [CONTACT, '5557654321', 'Elm Street', 'parcel']) {
      expect(lines[0]).not.toContain(secret);
    }
  });

  it('leaves other routes alone', async () => {
    const before = slowLines().length;
    const res = await postJson(`${t.url}/search`, { query: 'parcel', top_k: 3 });
    expect(res.status).toBe(200);
    expect(slowLines()).toHaveLength(before);
  });
});
