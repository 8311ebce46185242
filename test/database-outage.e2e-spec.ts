import { Database } from '@app/database';

import { deliverPodiumEvent, podiumEvent, podiumMessage } from './fakes/podium-webhooks';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { FaultSwitch, faultyWebhookProcessor } from './support/faults';
import { type OwnServer, startOwnServer, TEST_ENGINE } from './support/postgres';
import { waitFor } from './support/wait';

const SECRET = 'whsec_outage_51c2';

type ErrorBody = { error: string; message: string };
type SearchBody = { hits: Array<{ content: string }> };

/**
 * The server path when the server goes away: Postgres is stopped mid-run and started again.
 * Readiness says why, requests fail fast with `database_unavailable`, an unacknowledged
 * webhook is refused (Podium redelivers), an acknowledged one survives, and all of it
 * recovers on its own. Only the server can go away: PGlite runs in-process.
 */
const onServer = TEST_ENGINE === 'postgres' ? describe : describe.skip;

onServer('a Postgres outage (e2e: real app on its own server, stopped and restarted)', () => {
  const processorFault = new FaultSwitch();
  let server: OwnServer;
  let t: TestApp;

  beforeAll(async () => {
    server = startOwnServer();
    t = await bootTestApp(
      {
        DATABASE_URL: server.url,
        DATABASE_CONNECT_TIMEOUT_MS: '1000',
        PODIUM_WEBHOOK_SECRET: SECRET,
      },
      (builder) => faultyWebhookProcessor(processorFault)(builder),
    );
  });
  afterAll(async () => {
    await t?.close();
    server?.destroy();
  });

  const search = (query: string) =>
    postJson<SearchBody & ErrorBody>(`${t.url}/search`, {
      query,
      contact_uid: 'ctc_outage',
      top_k: 3,
    });
  const ready = () =>
    fetch(`${t.url}/health/ready`).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { details: Record<string, unknown> },
    }));
  /** Routes beside /search that read or write the database, with a body they accept. */
  const asJson = async (response: Response) => ({
    status: response.status,
    body: (await response.json()) as ErrorBody,
  });
  const outageRoutes: Array<[string, () => Promise<{ status: number; body: ErrorBody }>]> = [
    [
      'POST /ingest/conversations',
      () =>
        postJson<ErrorBody>(`${t.url}/ingest/conversations`, [
          {
            conversation_uid: 'conv_outage_later',
            contact_uid: 'ctc_outage_later',
            channel: 'sms',
            occurred_at: '2026-06-02T12:00:00Z',
            sender: 'customer',
            text: 'The rowing seat rail squeaks on every stroke.',
          },
        ]),
    ],
    [
      'DELETE /contacts/{contact_uid}/history',
      () =>
        fetch(`${t.url}/contacts/ctc_outage_forget/history`, { method: 'DELETE' }).then(asJson),
    ],
    ['GET /contacts', () => fetch(`${t.url}/contacts`).then(asJson)],
  ];
  const message = (body: string) =>
    podiumEvent(
      'message.received',
      podiumMessage({ contactUid: 'ctc_outage', conversationUid: `conv_${body.length}`, body }),
    );

  it('fails fast while the server is down and recovers by itself, losing no acknowledged webhook', async () => {
    const ingest = await postJson(`${t.url}/ingest/conversations`, [
      {
        conversation_uid: 'conv_outage',
        contact_uid: 'ctc_outage',
        channel: 'sms',
        occurred_at: '2026-06-01T12:00:00Z',
        sender: 'customer',
        text: 'My standing desk motor hums but the desk does not rise.',
      },
    ]);
    expect(ingest.status).toBe(200);
    expect((await search('standing desk motor')).body.hits[0].content).toContain('standing desk');

    // Acknowledged, then its processing fails (a dependency blinked) and is retried later.
    processorFault.mode = 'reject';
    const acknowledged = message('The replacement kayak paddle blade arrived cracked in half.');
    expect(
      (await deliverPodiumEvent(`${t.url}/webhooks/podium`, SECRET, acknowledged)).status,
    ).toBe(202);

    await waitFor('the first attempt to fail', async () => {
      const [row] = await t.app
        .get(Database)
        .query<{ attempts: number }>(
          'SELECT attempts FROM podium_webhook_events WHERE event_id = $1 AND locked_until IS NULL',
          [acknowledged.metadata.event_uid],
        );
      return row && row.attempts >= 1 ? true : undefined;
    });
    server.halt();

    const down = await ready();
    expect(down.status).toBe(503);
    expect(down.body.details.database).toEqual({
      status: 'down',
      message: expect.stringMatching(/database is unavailable/),
    });
    const refused = await search('standing desk motor');
    expect(refused.status).toBe(503);
    expect(refused.body.error).toBe('database_unavailable');
    // Every other database route fails the same way, never a 500.
    for (const [name, call] of outageRoutes) {
      const answer = await call();
      expect({ name, status: answer.status, error: answer.body.error }).toEqual({
        name,
        status: 503,
        error: 'database_unavailable',
      });
    }
    const bundle = await postJson<{ meta: { partial: boolean }; historical_excerpts: unknown[] }>(
      `${t.url}/context`,
      { transcript: 'the standing desk motor hums', contact_uid: 'ctc_outage', timeout_ms: 800 },
    );
    expect(bundle.status).toBe(200);
    expect(bundle.body).toMatchObject({ meta: { partial: true }, historical_excerpts: [] });
    // Not stored, so not acknowledged: Podium keeps it and redelivers.
    const unacknowledged = message('The bike trainer resistance knob spins freely now.');
    const duringOutage = await deliverPodiumEvent(
      `${t.url}/webhooks/podium`,
      SECRET,
      unacknowledged,
    );
    expect(duringOutage.status).toBe(503);
    expect(duringOutage.body).toMatchObject({ error: 'database_unavailable' });

    server.resume();
    processorFault.mode = 'off';

    await waitFor('readiness after the restart', async () =>
      (await ready()).status === 200 ? true : undefined,
    );
    expect((await search('standing desk motor')).status).toBe(200);
    // No restart: the same routes serve again.
    for (const [name, call] of outageRoutes) {
      expect({ name, status: (await call()).status }).toEqual({ name, status: 200 });
    }
    const redelivered = await deliverPodiumEvent(
      `${t.url}/webhooks/podium`,
      SECRET,
      unacknowledged,
    );
    expect(redelivered.status).toBe(202);
    for (const [query, text] of [
      ['kayak paddle blade cracked', 'kayak paddle'],
      ['bike trainer resistance knob', 'bike trainer'],
    ]) {
      const hit = await waitFor(`"${text}" retrievable`, async () => {
        const found = (await search(query)).body.hits?.find((h) => h.content.includes(text));
        return found ?? undefined;
      });
      expect(hit.content).toContain(text);
    }
  });
});

onServer('a Postgres that is down at boot (e2e: real app on its own server)', () => {
  let server: OwnServer;
  let t: TestApp;

  beforeAll(async () => {
    server = startOwnServer();
    server.halt();
    t = await bootTestApp({
      DATABASE_URL: server.url,
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      PODIUM_WEBHOOK_SECRET: SECRET,
    });
  });
  afterAll(async () => {
    await t?.close();
    server?.destroy();
  });

  /** Every route that reads or writes the database, with a body it would accept. */
  const databaseRoutes: Array<{
    name: string;
    call: () => Promise<{ status: number; body: unknown }>;
  }> = [
    {
      name: 'POST /search',
      call: () =>
        postJson(`${t.url}/search`, { query: 'rowing machine', contact_uid: 'ctc_boot', top_k: 1 }),
    },
    {
      name: 'POST /ingest/conversations',
      call: () =>
        postJson(`${t.url}/ingest/conversations`, [
          {
            conversation_uid: 'conv_boot',
            contact_uid: 'ctc_boot',
            channel: 'sms',
            occurred_at: '2026-06-01T12:00:00Z',
            sender: 'customer',
            text: 'The treadmill belt slips under load.',
          },
        ]),
    },
    {
      name: 'POST /ingest/kb',
      call: () =>
        postJson(`${t.url}/ingest/kb`, [
          { topic_id: 'kb_boot', title: 'Boot', summary: 'Boot topic.', text: 'How to boot.' },
        ]),
    },
    {
      name: 'DELETE /contacts/{contact_uid}/history',
      call: async () => {
        const response = await fetch(`${t.url}/contacts/ctc_forget/history`, { method: 'DELETE' });
        return { status: response.status, body: await response.json() };
      },
    },
    {
      name: 'POST /webhooks/podium',
      call: () =>
        deliverPodiumEvent(
          `${t.url}/webhooks/podium`,
          SECRET,
          podiumEvent(
            'message.received',
            podiumMessage({ contactUid: 'ctc_boot', conversationUid: 'conv_boot', body: 'hello' }),
          ),
        ),
    },
  ];

  it('starts anyway, not ready, and opens and migrates the database once it answers', async () => {
    expect((await fetch(`${t.url}/health/live`)).status).toBe(200);
    const down = await fetch(`${t.url}/health/ready`);
    expect(down.status).toBe(503);
    for (const route of databaseRoutes) {
      const refused = await route.call();
      expect({ route: route.name, status: refused.status, body: refused.body }).toEqual({
        route: route.name,
        status: 503,
        body: expect.objectContaining({
          error: 'database_unavailable',
          message: expect.stringMatching(/database is unavailable/),
        }),
      });
    }
    // Degrades rather than failing (the spec's deadline rule): an empty, partial bundle.
    const bundle = await postJson<{ meta: { partial: boolean }; historical_excerpts: unknown[] }>(
      `${t.url}/context`,
      { transcript: 'the rowing machine display', contact_uid: 'ctc_boot', timeout_ms: 800 },
    );
    expect(bundle.status).toBe(200);
    expect(bundle.body).toMatchObject({ meta: { partial: true }, historical_excerpts: [] });
    // The chat's one pre-stream retrieval error (its spec), a 503 like the rest.
    const chat = await postJson<ErrorBody>(`${t.url}/chat`, {
      query: 'How do I reset the rowing machine display?',
      userId: 'demo-employee',
    });
    expect(chat.status).toBe(503);
    expect(chat.body.error).toBe('retrieval_failed');

    server.resume();
    await waitFor('readiness once the server answers', async () =>
      (await fetch(`${t.url}/health/ready`)).status === 200 ? true : undefined,
    );
    // No restart: the same process serves every route once the background open succeeded.
    for (const route of databaseRoutes) {
      const served = await route.call();
      expect({ route: route.name, ok: served.status < 300 }).toEqual({
        route: route.name,
        ok: true,
      });
    }
    const ingest = await postJson(`${t.url}/ingest/conversations`, [
      {
        conversation_uid: 'conv_boot',
        contact_uid: 'ctc_boot',
        channel: 'sms',
        occurred_at: '2026-06-01T12:00:00Z',
        sender: 'customer',
        text: 'The rowing machine display stays blank after the battery swap.',
      },
    ]);
    expect(ingest.status).toBe(200);
    const search = await postJson<SearchBody>(`${t.url}/search`, {
      query: 'rowing machine display blank',
      contact_uid: 'ctc_boot',
      top_k: 1,
    });
    expect(search.body.hits[0].content).toContain('rowing machine');
  });
});
