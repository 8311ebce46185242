import { type AdapterApp, bootAdapterApp, tenantA, tenantB } from './support/adapter-fixtures';
import { StreamClient } from './support/call-stream';
import { request } from './support/tenant-isolation-fixtures';

type Key = { key: string };
const bearer = (k: Key) => ({ authorization: `Bearer ${k.key}` });
/** In every id and path B sends: /metrics, which any key reads, must never carry it. */
const B_ID = 'bsecretzq7';

/**
 * What tenant A reads of tenant B through `/metrics` (any valid key may read it): B's ids in
 * paths (a forget by URL, the vector store, a call stream, a route that does not exist, a
 * refused request) must never become a label.
 */
describe('isolation red team: /metrics names nothing of another tenant (e2e)', () => {
  let a: AdapterApp;
  const url = () => a.t.url;

  beforeAll(async () => {
    a = await bootAdapterApp({ CONTEXT_TIMEOUT_MS: '5000', METRICS_REQUIRE_KEY: 'true' });
  }, 120_000);
  afterAll(async () => {
    await a?.t.close();
  });

  it("B's ids in paths, answered or refused, never reach A's /metrics", async () => {
    const asB = bearer(tenantB);
    await request(`${url()}/contacts/ctc_${B_ID}/history`, 'DELETE', asB);
    await request(`${url()}/v1/vector_stores/ctc_${B_ID}/search`, 'POST', asB, { query: 'q' });
    await request(`${url()}/v1/vector_stores/ctc_${B_ID}/search`, 'POST', {}, { query: 'q' });
    await request(`${url()}/contacts/forget/receipts/${B_ID}`, 'GET', asB);
    await request(`${url()}/no/such/route/${B_ID}`, 'GET', asB);
    await request(`${url()}/contacts/${'x'.repeat(120)}${B_ID}/history`, 'DELETE', asB);
    const stream = new StreamClient(
      `${url().replace('http', 'ws')}/calls/call_${B_ID}/stream?contact_uid=ctc_${B_ID}`,
      asB,
    );
    await stream.opened;
    await stream.next(['ready']);
    stream.close();
    await stream.closed;
    const metrics = await request(`${url()}/metrics`, 'GET', bearer(tenantA));
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('context_bridge_http_request_duration_seconds');
    expect(metrics.text).not.toContain(B_ID);
  });
});
