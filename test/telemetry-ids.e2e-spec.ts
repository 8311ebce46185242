import { keyedHash } from '@app/common';

import {
  type FakePodium,
  podiumApiEnv,
  podiumContact,
  startFakePodium,
} from './fakes/podium-server';
import {
  type ObservedServer,
  startObservedServer,
  stopObservedServer,
} from './support/observed-app';
import { attributesOf, OtlpCollector } from './support/otlp-collector';
import { engineEnv, TEST_ENGINE } from './support/postgres';

/**
 * Contact ids in telemetry, end to end: `src/main.ts` with the Podium API provider (where
 * contact ids are phone numbers and e-mail addresses) against the loopback Podium, exporting
 * spans to a loopback OTLP collector and logging at `trace` (and, in the e2e-postgres project,
 * on a Postgres server, so the SQL spans are checked too). Every route that carries an id
 * in its URL or sends one to Podium is called; no log line and no exported span may hold
 * the id in any spelling, and the keyed hash stands in for it.
 */

const KEY = 'telemetry-e2e-hash-key-0123456789abcdef';
const EMAIL = 'jane.doe@example.com';
const PHONE = '+14155550134';
const hashOf = (id: string) => `h:${keyedHash(KEY, id)}`;
/** The ids raw, URL-encoded, or spelled with separators. */
const LEAKS = [
  /jane\.doe/i,
  /example\.com/i,
  /jane\.doe%40/i,
  /4155550134/,
  /415\D{1,3}555\D{1,3}0134/,
];
const leaked = (text: string) => LEAKS.filter((pattern) => pattern.test(text)).map(String);

const LOCATION = 'loc_main';

const send = (url: string, method: string, body?: unknown) =>
  fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('contact ids in logs and traces (PODIUM_PROVIDER=api, OTLP to loopback)', () => {
  let collector: OtlpCollector;
  let podium: FakePodium;
  let server: ObservedServer;
  let release: (() => Promise<void>) | undefined;
  const statuses: Record<string, number> = {};
  let vapiDocuments: Array<{ uuid: string }> = [];

  beforeAll(async () => {
    collector = await OtlpCollector.start();
    podium = await startFakePodium();
    podium.upsert(
      podiumContact({ name: 'Jane Doe', email: EMAIL, phone: PHONE, locationUids: [LOCATION] }),
    );
    const engine = await engineEnv();
    release = engine.release;
    server = await startObservedServer({
      ...engine.env,
      DATA_DIR: 'memory://',
      SEED_DEMO_DATA: 'false',
      EMBEDDING_WORKERS: '1',
      NODE_ENV: 'test',
      LOG_LEVEL: 'trace',
      ...podiumApiEnv(podium),
      TELEMETRY_HASH_KEY: KEY,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '50',
    });
    const url = server.url;
    const history = [EMAIL, PHONE].map((contact, i) => ({
      conversation_uid: `conv_${i}`,
      contact_uid: contact,
      location_uid: LOCATION,
      channel: 'sms',
      occurred_at: '2026-05-01T10:00:00Z',
      sender: 'customer',
      text: 'Please leave the sofa on the back porch.',
    }));
    statuses.ingest = (await send(`${url}/ingest/conversations`, 'POST', history)).status;
    // A bundle for each id: a live Podium lookup by e-mail and by phone.
    for (const contact of [EMAIL, PHONE]) {
      const transcript = 'where does the sofa go';
      statuses[`context ${contact}`] = (
        await send(`${url}/context`, 'POST', { transcript, contact_uid: contact })
      ).status;
    }
    statuses.search = (
      await send(`${url}/v1/vector_stores/${encodeURIComponent(PHONE)}/search`, 'POST', {
        query: 'where does the sofa go',
      })
    ).status;
    const vapi = await send(`${url}/adapters/vapi/knowledge-base`, 'POST', {
      message: {
        type: 'knowledge-base-request',
        messages: [{ role: 'user', message: 'where does the sofa go' }],
        call: { id: 'call_1', customer: { number: PHONE } },
      },
    });
    statuses.vapi = vapi.status;
    vapiDocuments = ((await vapi.json()) as { documents: Array<{ uuid: string }> }).documents;
    // Malformed JSON: the parser's message quotes the body.
    statuses.malformed = (
      await send(`${url}/context`, 'POST', `{"contact_uid": "${EMAIL}" x`)
    ).status;
    // No such route: the path is logged and traced all the same.
    statuses.unmatched = (await send(`${url}/contacts/${PHONE}?email=${EMAIL}`, 'GET')).status;
    // An id longer than the router's parameter limit (whatever the answer is, 200 or 414).
    await send(`${url}/contacts/${'x'.repeat(100)}.${encodeURIComponent(EMAIL)}/history`, 'DELETE');
    statuses.forget = (
      await send(`${url}/contacts/${encodeURIComponent(EMAIL)}/history`, 'DELETE')
    ).status;
    // The body route: the id is in no URL, and must not reach a log line or span from there.
    statuses['forget (body)'] = (
      await send(`${url}/contacts/forget`, 'POST', { contact_uid: PHONE })
    ).status;
    await collector.until('the last forget request span', (spans) =>
      spans.some((s) => s.name === 'POST /contacts/forget'),
    );
    // A clean shutdown flushes what the batch processor still holds.
    await stopObservedServer(server);
  }, 240_000);

  afterAll(async () => {
    if (server?.child.exitCode === null) {
      server.child.kill('SIGKILL');
    }
    await server?.exited;
    await release?.();
    await podium?.close();
    await collector?.close();
  });

  it('served every call (so each path really ran, Podium lookups included)', () => {
    expect(statuses).toEqual({
      ingest: 200,
      [`context ${EMAIL}`]: 200,
      [`context ${PHONE}`]: 200,
      search: 200,
      vapi: 200,
      malformed: 400,
      unmatched: 404,
      forget: 200,
      'forget (body)': 200,
    });
    const asked = podium.contactRequests.map((r) => r.identifier);
    expect(asked).toEqual(expect.arrayContaining([EMAIL, PHONE]));
  });

  it('exports no span holding a contact id, in any spelling', () => {
    expect(collector.spans.length).toBeGreaterThan(0);
    if (TEST_ENGINE === 'postgres') {
      // The SQL of the forget and of the searches was traced, and checked with the rest.
      expect(collector.spans.map((s) => s.scope)).toContain('@opentelemetry/instrumentation-pg');
    }
    expect(collector.bodies.flatMap(leaked)).toEqual([]);
  });

  it('writes no log line holding a contact id, in any spelling', () => {
    expect(server.stdout.length).toBeGreaterThan(0);
    expect([...server.stdout, ...server.stderr].flatMap(leaked)).toEqual([]);
  });

  it('logs the keyed hash in the id’s place, so one contact’s requests can still be found', () => {
    const urls = server.stdout
      .map((line) => JSON.parse(line) as { req?: { method: string; url: string } })
      .flatMap((line) => (line.req ? [`${line.req.method} ${line.req.url}`] : []));
    expect(urls).toEqual(
      expect.arrayContaining([
        `DELETE /contacts/${hashOf(EMAIL)}/history`,
        `POST /v1/vector_stores/${hashOf(PHONE)}/search`,
        `GET /contacts/${hashOf(PHONE)}?email=${hashOf(EMAIL)}`,
      ]),
    );
  });

  it('names the Vapi contact document by the keyed hash (Vapi keeps documents in its logs)', () => {
    expect(vapiDocuments[0]?.uuid).toBe(`contact:${hashOf(PHONE)}`);
    expect(leaked(JSON.stringify(vapiDocuments.map((d) => d.uuid)))).toEqual([]);
  });

  it('traces the keyed hash in the id’s place, under the route’s template', () => {
    const requests = (name: string) =>
      collector.spans.filter((s) => s.name === name).map(attributesOf);
    expect(requests('DELETE /contacts/:contact_uid/history')).toContainEqual(
      expect.objectContaining({
        'url.path': `/contacts/${hashOf(EMAIL)}/history`,
        'http.route': '/contacts/:contact_uid/history',
      }),
    );
    expect(requests('POST /v1/vector_stores/:contact_uid/search')).toContainEqual(
      expect.objectContaining({ 'url.path': `/v1/vector_stores/${hashOf(PHONE)}/search` }),
    );
  });
});
