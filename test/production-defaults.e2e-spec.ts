import { generateApiKey } from '../src/config/api-key-entries';
import { type ContextBundle } from '../src/context/context.dto';
import { DEMO_TOPICS } from '../src/demo/demo-kb';
import { deliverPodiumEvent, podiumEvent, podiumMessage } from './fakes/podium-webhooks';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { type AppProcess, startAppProcess } from './support/app-process';
import { message } from './support/auth-fixtures';
import { postSse } from './support/sse';
import { waitFor } from './support/wait';

const platform = generateApiKey('platform');
const SECRET = 'whsec_none_e2e';

/**
 * Issue 38's release check: a platform team runs the production image with nothing but
 * NODE_ENV=production and an API key. No CRM and no curriculum are configured, so the
 * service runs on `none` for both (and says so once), never on the demo set.
 */
describe('NODE_ENV=production with only an API key (e2e, src/main.ts)', () => {
  let app: AppProcess;
  let stdout = '';
  const as = { 'x-api-key': platform.key };
  const post = <T = Record<string, unknown>>(
    path: string,
    body: unknown,
    headers: Record<string, string> = as,
  ) => postJson<T>(`${app.url}${path}`, body, headers);

  beforeAll(async () => {
    app = await startAppProcess(
      {
        NODE_ENV: 'production',
        API_KEYS: platform.line,
        DATA_DIR: 'memory://',
        LOG_LEVEL: 'warn',
        // Unset whatever the runner's environment holds: the point is that nothing is set.
        PODIUM_PROVIDER: undefined,
        CURRICULUM_PROVIDER: undefined,
        ALLOW_DEMO_PROVIDERS: undefined,
        SEED_DEMO_DATA: undefined,
        DATABASE_URL: undefined,
      },
      { onStdout: (text) => (stdout += text) },
    );
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('boots, saying once what is off and how to turn it on', () => {
    const warnings = stdout.split('\n').filter((line) => line.includes('unset, so none'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('PODIUM_PROVIDER and CURRICULUM_PROVIDER unset, so none');
    expect(warnings[0]).toContain('PODIUM_PROVIDER=api with PODIUM_CLIENT_ID');
    expect(warnings[0]).toContain('CURRICULUM_PROVIDER=pocketbase with POCKETBASE_URL');
  });

  it('answers POST /context 401 without the key and 200 with it: history, no live fields, not partial', async () => {
    const ingest = await post<{ failed: unknown[] }>('/ingest/conversations', [
      message('ctc_prod', undefined, 0, 'The walnut dining table arrived with a cracked leg.'),
      message('ctc_prod', undefined, 1, 'Sorry about that, a replacement leg ships on Friday.'),
    ]);
    expect(ingest).toMatchObject({ status: 200, body: { failed: [] } });

    const request = { transcript: 'when does the table leg ship', contact_uid: 'ctc_prod' };
    const anonymous = await post('/context', request, {});
    expect(anonymous).toMatchObject({ status: 401, body: { error: 'missing_api_key' } });

    const sut = await post<ContextBundle>('/context', request);
    expect(sut.status).toBe(200);
    expect(sut.body.contact).toEqual({ live_fields_available: false, error: 'not_configured' });
    expect(sut.body.meta).toMatchObject({ partial: false, had_live_lookup: false });
    expect(sut.body.historical_excerpts.map((e) => e.content).join(' ')).toMatch(/replacement leg/);
  });

  it('reports the CRM as not configured, never degraded, and stays ready', async () => {
    const ready = await fetch(`${app.url}/health/ready`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { info: Record<string, unknown> };
    expect(body.info.podium).toEqual({ status: 'up', configured: false });
  });
});

/** The same providers named explicitly, in-process: what production's defaults rely on. */
describe('PODIUM_PROVIDER=none and CURRICULUM_PROVIDER=none (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp({
      PODIUM_PROVIDER: 'none',
      CURRICULUM_PROVIDER: 'none',
      PODIUM_WEBHOOK_SECRET: SECRET,
    });
    const ingest = await postJson<{ failed: unknown[] }>(
      `${t.url}/ingest/kb`,
      DEMO_TOPICS.slice(0, 3),
    );
    expect(ingest).toMatchObject({ status: 200, body: { failed: [] } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers /chat for any userId (no roster to refuse it), without a theme to boost', async () => {
    const sut = await postSse<{ type: string }>(`${t.url}/chat`, {
      query: 'What defines a role in a holacratic organisation?',
      userId: 'u_anyone',
    });
    expect(sut.status).toBe(200);
    expect(sut.events.some((e) => e.data.type === 'chunk')).toBe(true);
    expect(sut.events.map((e) => e.data.type).at(-1)).toBe('done');
  });

  it('has no contacts to list, and no live fields for any contact', async () => {
    const list = await fetch(`${t.url}/contacts`);
    expect(await list.json()).toEqual({ contacts: [], listable: false });
    const bundle = await postJson<ContextBundle>(`${t.url}/context`, {
      transcript: 'where is my order',
      contact_uid: 'ctc_any',
    });
    expect(bundle.body.contact).toEqual({ live_fields_available: false, error: 'not_configured' });
    expect(bundle.body.meta.partial).toBe(false);
  });

  it('still takes signed Podium webhooks: their messages are history under the Podium contact uid', async () => {
    const event = podiumEvent(
      'message.received',
      podiumMessage({
        contactUid: 'ctc_hook',
        conversationUid: 'conv_hook',
        body: 'The kayak paddle I ordered arrived with a split blade.',
      }),
    );
    const delivered = await deliverPodiumEvent(`${t.url}/webhooks/podium`, SECRET, event);
    expect(delivered.status).toBe(202);
    const bundle = await waitFor('the webhook message in a bundle', async () => {
      const answer = await postJson<ContextBundle>(`${t.url}/context`, {
        transcript: 'the paddle blade is split',
        contact_uid: 'ctc_hook',
      });
      return answer.body.historical_excerpts.length > 0 ? answer.body : undefined;
    });
    expect(bundle.historical_excerpts[0].content).toContain('split blade');
    expect(bundle.contact).toEqual({ live_fields_available: false, error: 'not_configured' });
  });
});
