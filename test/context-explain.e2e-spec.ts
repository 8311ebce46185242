import { contentHash, uuidFromHash } from '@app/common';
import { EmbeddingService } from '@app/embedding';
import { FUSION_COMPONENTS } from '@app/rerank';
import { VECTOR_STORE, type VectorStore } from '@app/vector';

import { type ContextBundle } from '../src/context/context.dto';
import { type AdapterApp, bootAdapterApp, ops, tenantA, tenantB } from './support/adapter-fixtures';
import { postJson } from './support/app';

/** PII that must never leave unredacted, in the transcript and in a stored window. */
const EMAIL = 'rosa.quint@example.org';
const PHONE = '415-555-0134';
/** Stored as-is (bypassing ingest's redaction) to prove the way out redacts on its own. */
const RAW_PII_WINDOW = [
  `customer: my espresso machine leaks again, write to ${EMAIL}`,
  `agent: we will call you at ${PHONE} about the espresso machine boiler`,
].join('\n');

/** Every part of a fusion score, sorted. */
const FUSION_PARTS = [...FUSION_COMPONENTS].sort();

describe('POST /context with explain (e2e)', () => {
  let a: AdapterApp;
  const context = (body: Record<string, unknown>, key: string | null = ops.key) =>
    postJson<ContextBundle & { error?: string }>(
      `${a.t.url}/context`,
      { timeout_ms: 2000, ...body },
      key ? { authorization: `Bearer ${key}` } : {},
    );

  beforeAll(async () => {
    a = await bootAdapterApp();
    const [embedding] = await a.t.app.get(EmbeddingService).embedDocuments([RAW_PII_WINDOW]);
    await a.t.app.get<VectorStore>(VECTOR_STORE).upsert('conversations', [
      {
        id: uuidFromHash(contentHash(RAW_PII_WINDOW)),
        content: RAW_PII_WINDOW,
        embedding,
        payload: {
          contact_uid: 'ctc_a1',
          location_uid: 'loc_a',
          conversation_uid: 'conv_pii',
          channel: 'sms',
          occurred_at: '2026-01-06T10:00:00.000Z',
        },
      },
    ]);
  });
  afterAll(() => a.t.close());
  afterEach(() => {
    a.embedFault.mode = a.liveFault.mode = 'off';
  });

  it('returns the whole pool with ranks, scores and every fusion component beside the bundle', async () => {
    const res = await context({
      transcript: 'my espresso machine is leaking water',
      contact_uid: 'ctc_a1',
      pool_k: 10,
      final_k: 3,
      explain: true,
    });
    expect(res.status).toBe(200);
    const explain = res.body.explain!;
    expect(explain).toMatchObject({ reranker: 'fusion', reranked: true, pool_k: 10 });
    expect(explain.candidates.length).toBeGreaterThanOrEqual(2);
    expect(explain.candidates.length).toBeLessThanOrEqual(10);
    for (const c of explain.candidates) {
      expect(Object.keys(c.components ?? {}).sort()).toEqual(FUSION_PARTS);
      expect(c.dense_rank !== null || c.bm25_rank !== null).toBe(true);
      expect(typeof c.cosine).toBe('number');
      expect(typeof c.score).toBe('number');
      expect(['kept', 'merged', 'rank', 'threshold', 'budget']).toContain(c.outcome);
    }
    // Kept rows are exactly the bundle's excerpts, at the same score.
    const kept = explain.candidates.filter((c) => c.outcome === 'kept');
    expect(kept.map((c) => c.id).sort()).toEqual(
      res.body.historical_excerpts.map((e) => e.id).sort(),
    );
    for (const e of res.body.historical_excerpts) {
      expect(kept.find((c) => c.id === e.id)?.score).toBe(e.rerank_score);
    }
    const stages = explain.stages.map((s) => s.name);
    expect(stages).toEqual(
      expect.arrayContaining(['coalesce', 'embed', 'search', 'rerank', 'live', 'explain']),
    );
    expect(explain.stages.find((s) => s.name === 'live')?.lane).toBe('live');
  });

  it('never shows the e-mail address or phone number of the transcript or the history unredacted', async () => {
    const res = await context({
      transcript: `espresso machine leaking, I am ${EMAIL}, call ${PHONE}`,
      contact_uid: 'ctc_a1',
      call_id: 'call_pii',
      explain: true,
    });
    expect(res.status).toBe(200);
    const explain = res.body.explain!;
    const shown = JSON.stringify({ explain, excerpts: res.body.historical_excerpts });
    expect(shown).not.toContain(EMAIL);
    expect(shown).not.toContain(PHONE);
    expect(shown).not.toContain('555-0134');
    const pii = explain.candidates.find((c) => c.conversation_uid === 'conv_pii');
    expect(pii?.content).toContain('[REDACTED:EMAIL]');
    expect(pii?.content).toContain('[REDACTED:PHONE]');
    const excerpt = explain.excerpts.find((e) => e.id === pii?.id);
    expect(excerpt?.redactions).toEqual({ EMAIL: 1, PHONE: 1 });
  });

  it('has no explain key with explain false or absent, and refuses a non-boolean', async () => {
    const off = await context({
      transcript: 'espresso machine',
      contact_uid: 'ctc_a1',
      explain: false,
    });
    const absent = await context({ transcript: 'espresso machine', contact_uid: 'ctc_a1' });
    expect(off.status).toBe(200);
    expect('explain' in off.body).toBe(false);
    expect('explain' in absent.body).toBe(false);
    const bad = await context({ transcript: 'espresso machine', explain: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('validation_failed');
  });

  it('keeps the tenant rules: no key is 401, a bound key sees only its own locations in the pool', async () => {
    expect((await context({ transcript: 'espresso', explain: true }, null)).status).toBe(401);
    const asA = await context(
      { transcript: 'espresso machine leaks water', explain: true },
      tenantA.key,
    );
    expect(asA.status).toBe(200);
    expect(asA.body.explain!.candidates.length).toBeGreaterThan(0);
    expect(JSON.stringify(asA.body.explain)).not.toContain('B-SECRET');
    const asB = await context(
      { transcript: 'espresso machine leaks water', contact_uid: 'ctc_a1', explain: true },
      tenantB.key,
    );
    expect(asB.body.explain!.candidates).toEqual([]);
    const forbidden = await context(
      { transcript: 'espresso', location_uid: 'loc_a', explain: true },
      tenantB.key,
    );
    expect(forbidden.status).toBe(403);
  });

  it('keeps the deadline: retrieval that misses it ships an empty, partial pool', async () => {
    a.embedFault.mode = 'hang';
    const res = await context({
      // Words no other test embeds: a cached query embedding would not need the embedder.
      transcript: 'the grinder hums but no coffee comes out',
      contact_uid: 'ctc_a1',
      timeout_ms: 200,
      explain: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.meta.partial).toBe(true);
    expect(res.body.explain!.candidates).toEqual([]);
  });

  describe('the inspector’s routes', () => {
    const get = (path: string, key?: string) =>
      fetch(`${a.t.url}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });

    it('GET /contacts lists ids and names inside the key’s locations, with a limit', async () => {
      const all = (await (await get('/contacts', ops.key)).json()) as {
        contacts: Array<{ contact_uid: string }>;
        listable: boolean;
      };
      expect(all.listable).toBe(true);
      expect(all.contacts.map((c) => c.contact_uid)).toEqual(['ctc_a1', 'ctc_b1']);
      const asA = (await (await get('/contacts', tenantA.key)).json()) as typeof all;
      expect(asA.contacts.map((c) => c.contact_uid)).toEqual(['ctc_a1']);
      const one = (await (await get('/contacts?limit=1', ops.key)).json()) as typeof all;
      expect(one.contacts).toHaveLength(1);
      expect((await get('/contacts?limit=0', ops.key)).status).toBe(400);
      expect((await get('/contacts')).status).toBe(401);
    });

    it('serves the page and its script under a strict CSP; the page holds no data', async () => {
      const page = await get('/inspect');
      expect(page.status).toBe(200);
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(await page.text()).toContain('<script type="module" src="/inspect/inspector.js">');
      const script = await get('/inspect/inspector.js');
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toContain('text/javascript');
      expect(await script.text()).not.toContain('innerHTML');
    });
  });
});
