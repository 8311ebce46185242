import { contentHash, uuidFromHash } from '@app/common';
import { Database } from '@app/database';
import { EMBEDDING_PROVIDER, EmbeddingService } from '@app/embedding';
import { LocalPodiumContacts, PODIUM_CONTACTS, PodiumAuthError } from '@app/podium';
import { FusionReranker, RERANKER } from '@app/rerank';
import { VECTOR_STORE, type VectorStore } from '@app/vector';
import { getStorageToken, ThrottlerStorageService } from '@nestjs/throttler';
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

import { LocalEmbeddingProvider } from '../libs/embedding/src/local/local-embedding.provider';
import { type ContextBundle } from '../src/context/context.dto';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { FaultSwitch } from './support/faults';

const msg = (
  conversation: string,
  contact: string,
  day: number,
  turn: number,
  sender: string,
  text: string,
) => ({
  conversation_uid: conversation,
  contact_uid: contact,
  location_uid: 'loc_main',
  channel: turn % 2 ? 'call' : 'sms',
  occurred_at: new Date(Date.UTC(2026, 0, day, 12, turn)).toISOString(),
  sender,
  text,
});

/** Each conversation is short, so it is one window; windows are named by their conversation. */
const HISTORY = [
  // Split order number: ABC-12345 is the one; XYZ-12345 and ABC-67890 are decoys.
  msg(
    'orders_abc',
    'ctc_orders',
    1,
    0,
    'customer',
    'My order ABC-12345 arrived with a cracked lamp shade.',
  ),
  msg(
    'orders_xyz',
    'ctc_orders',
    2,
    0,
    'customer',
    'Please cancel order XYZ-12345, I bought the sofa elsewhere.',
  ),
  msg(
    'orders_abc2',
    'ctc_orders',
    3,
    0,
    'customer',
    'Order ABC-67890 is a gift, please add a card.',
  ),
  // Boilerplate against real content.
  msg('bp_1', 'ctc_bp', 1, 0, 'agent', 'Thanks for reaching out! Have a great day!'),
  msg('bp_1', 'ctc_bp', 1, 1, 'customer', 'Thanks, you too, have a great day.'),
  msg(
    'bp_2',
    'ctc_bp',
    2,
    0,
    'agent',
    'Thank you for contacting us. Is there anything else I can help you with today?',
  ),
  msg('bp_2', 'ctc_bp', 2, 1, 'customer', 'No thanks, that is all. Bye!'),
  msg(
    'bp_real',
    'ctc_bp',
    3,
    0,
    'customer',
    'The blender motor burns out after two minutes of use.',
  ),
  msg(
    'bp_real',
    'ctc_bp',
    3,
    1,
    'agent',
    'The blender is under warranty; we will ship a replacement motor base.',
  ),
];

/** History loaded by some other tool that forgot to redact: it reaches the store raw. */
const RAW_PII_WINDOW = [
  'customer: Text me at (555) 0100 when the delivery is scheduled.',
  'customer: Deliver to 742 Evergreen Terrace, Springfield, IL 62704.',
  'customer: Charge the card 4111 1111 1111 1111 for the delivery fee.',
].join('\n');

const LONG_HISTORY = Array.from({ length: 8 }, (_, i) =>
  msg(
    `long_${i}`,
    'ctc_long',
    i + 1,
    0,
    'customer',
    `Visit ${i}: the dishwasher leaks from the door seal. The technician replaced the seal and tested a full cycle. It leaked again a week later, so we booked another visit for the pump.`,
  ),
);

/** One 12-turn conversation: three windows of 6 turns, neighbours sharing 2 (turns 4–5, 8–9). */
const MERGE_HISTORY = Array.from({ length: 12 }, (_, i) =>
  msg(
    'merge_long',
    'ctc_merge',
    1,
    i,
    i % 2 ? 'agent' : 'customer',
    i === 4 || i === 5
      ? `Turn ${i}: the espresso machine grinder jams on dark roast beans.`
      : `Turn ${i}: general chat about the store hours and parking.`,
  ),
);

const contents = (b: ContextBundle) => b.historical_excerpts.map((e) => e.content);

/** The rate limiter's counters, with a hook run as each request is counted (before the handler). */
class HookedLimiterStorage extends ThrottlerStorageService {
  onCount?: () => void;

  override increment(...args: Parameters<ThrottlerStorageService['increment']>) {
    this.onCount?.();
    return super.increment(...args);
  }
}

describe('POST /context (e2e: real app, PGlite, local embedder, fusion reranker)', () => {
  let t: TestApp;
  const rerankFault = new FaultSwitch();
  const liveFault = new FaultSwitch();
  const embedFault = new FaultSwitch();
  const limiter = new HookedLimiterStorage();

  beforeAll(async () => {
    t = await bootTestApp({}, (builder) =>
      builder
        .overrideProvider(getStorageToken())
        .useValue(limiter)
        .overrideProvider(RERANKER)
        .useValue(rerankFault.wrap(new FusionReranker(), ['score']))
        .overrideProvider(PODIUM_CONTACTS)
        .useFactory({
          factory: (db: Database) => liveFault.wrap(new LocalPodiumContacts(db), ['getContact']),
          inject: [Database],
        })
        .overrideProvider(EMBEDDING_PROVIDER)
        .useValue(embedFault.wrap(new LocalEmbeddingProvider({ workers: 1 }), ['embedBatch'])),
    );
    const ingest = await postJson(`${t.url}/ingest/conversations`, [
      ...HISTORY,
      ...LONG_HISTORY,
      ...MERGE_HISTORY,
    ]);
    expect(ingest.status).toBe(200);
    const [embedding] = await t.app.get(EmbeddingService).embedDocuments([RAW_PII_WINDOW]);
    await t.app.get<VectorStore>(VECTOR_STORE).upsert('conversations', [
      {
        id: uuidFromHash(contentHash(RAW_PII_WINDOW)),
        content: RAW_PII_WINDOW,
        embedding,
        payload: {
          contact_uid: 'ctc_pii',
          location_uid: 'loc_main',
          conversation_uid: 'pii_1',
          channel: 'sms',
          occurred_at: '2026-01-01T12:00:00.000Z',
        },
      },
    ]);
    const contacts = t.app.get<LocalPodiumContacts>(PODIUM_CONTACTS);
    await contacts.upsert([
      {
        contact_uid: 'ctc_pii',
        phone: '+1 555 0199',
        email: 'pat@example.com',
        opt_out_sms: false,
        opt_out_email: false,
        location_uid: 'loc_main',
        last_seen_at: '2026-11-30T10:00:00.000Z',
      },
      {
        contact_uid: 'ctc_orders',
        phone: null,
        email: null,
        opt_out_sms: true,
        opt_out_email: false,
        location_uid: 'loc_main',
        last_seen_at: null,
      },
    ]);
  });
  afterAll(() => t?.close());
  afterEach(() => {
    rerankFault.mode = liveFault.mode = embedFault.mode = 'off';
  });

  const context = (body: Record<string, unknown>) =>
    postJson<ContextBundle>(`${t.url}/context`, body);

  describe('chunk boundaries', () => {
    it('finds an order number split across two chunks only when coalesced', async () => {
      const first = await context({
        transcript: 'hi, my order number is ABC',
        contact_uid: 'ctc_orders',
        call_id: 'call-split',
      });
      expect(first.status).toBe(200);
      const joined = await context({
        transcript: '12345',
        contact_uid: 'ctc_orders',
        call_id: 'call-split',
      });
      expect(joined.body.meta.query).toBe('hi, my order number is ABC 12345');
      expect(joined.body.historical_excerpts[0].content).toContain('ABC-12345');
      expect(joined.body.historical_excerpts[0].rerank_score).toBeGreaterThan(
        joined.body.historical_excerpts[1].rerank_score,
      );

      const alone = await context({ transcript: '12345', contact_uid: 'ctc_orders' });
      // The second chunk alone cannot tell ABC-12345 from the XYZ-12345 decoy: both come
      // first, and whichever leads does so by much less than the coalesced query's lead.
      const [top, next] = alone.body.historical_excerpts;
      expect([top.content, next.content].every((c) => c.includes('-12345'))).toBe(true);
      const lead = (b: typeof alone.body) =>
        b.historical_excerpts[0].rerank_score - b.historical_excerpts[1].rerank_score;
      expect(lead(alone.body)).toBeLessThan(lead(joined.body));
    });
  });

  describe('relevance noise', () => {
    it('pushes boilerplate below real content', async () => {
      const res = await context({
        transcript: 'thanks for taking my call, the blender stopped working again',
        contact_uid: 'ctc_bp',
      });
      expect(res.body.meta.reranked).toBe(true);
      expect(res.body.historical_excerpts[0].content).toContain('blender motor burns out');
      const boilerplate = res.body.historical_excerpts.filter((e) =>
        /great day|anything else/.test(e.content),
      );
      expect(
        boilerplate.every((e) => e.rerank_score < res.body.historical_excerpts[0].rerank_score),
      ).toBe(true);
    });
  });

  describe('stale data and PII', () => {
    it('ships the live phone, never the remembered one, and masks PII in history', async () => {
      const res = await context({
        transcript: 'where should we deliver and what number do we text',
        contact_uid: 'ctc_pii',
      });
      expect(res.body.contact).toMatchObject({
        phone: '+1 555 0199',
        email: 'pat@example.com',
        live_fields_available: true,
      });
      expect(res.body.meta.had_live_lookup).toBe(true);
      const text = contents(res.body).join('\n');
      expect(text).toContain('[REDACTED:PHONE]');
      expect(text).toContain('[REDACTED:CC]');
      expect(text).toContain('[REDACTED:ADDR]');
      expect(text).not.toMatch(/0100|4111|Evergreen/);
      expect(JSON.stringify(res.body)).not.toContain('0100');
      expect(res.body.meta.redactions).toMatchObject({
        PHONE: 1,
        CREDIT_CARD: 1,
        STREET_ADDRESS: 1,
      });
    });

    it('stores ingested history already masked (the second line of defence)', async () => {
      await postJson(`${t.url}/ingest/conversations`, [
        msg(
          'pii_2',
          'ctc_pii_ingest',
          1,
          0,
          'customer',
          'My card is 4111 1111 1111 1111 and my email is pat@example.com.',
        ),
      ]);
      const search = await postJson<{ hits: Array<{ content: string }> }>(`${t.url}/search`, {
        query: 'card email',
        contact_uid: 'ctc_pii_ingest',
      });
      expect(search.body.hits[0].content).toBe(
        'customer: My card is [REDACTED:CC] and my email is [REDACTED:EMAIL].',
      );
    });

    it('keeps an unknown contact (404) filtered to that contact: no one else’s history', async () => {
      const res = await context({
        transcript: 'my order ABC-12345 and the blender',
        contact_uid: 'ctc_nobody',
      });
      expect(res.body.contact).toEqual({ live_fields_available: false, error: 404 });
      expect(res.body.historical_excerpts).toEqual([]);
      expect(res.body.meta.partial).toBe(false);
    });
  });

  describe('distinct evidence', () => {
    it('gives overlapping windows of one conversation one excerpt: no turn twice', async () => {
      const res = await context({
        transcript: 'the espresso grinder jams on dark roast',
        contact_uid: 'ctc_merge',
      });
      const lines = contents(res.body).flatMap((c) => c.split('\n'));
      expect(lines.filter((l) => l.includes('espresso')).length).toBe(2); // turns 4 and 5, once each
      expect(new Set(lines).size).toBe(lines.length);
      // The two windows holding turns 4–5 became one excerpt, its turns in order.
      const merged = contents(res.body).find((c) => c.includes('espresso'))!;
      expect(merged).toMatch(/Turn 0:[\s\S]*Turn 4:[\s\S]*Turn 5:[\s\S]*Turn 9:/);
    });
  });

  describe('token budget', () => {
    it('drops the lowest-scored excerpts and truncates the last at a sentence boundary', async () => {
      const res = await context({
        transcript: 'the dishwasher is leaking again',
        contact_uid: 'ctc_long',
        max_tokens: 80,
        final_k: 5,
      });
      const excerpts = res.body.historical_excerpts;
      expect(res.body.meta.dropped_excerpts).toBeGreaterThan(0);
      expect(excerpts.length).toBeLessThan(5);
      const last = excerpts[excerpts.length - 1];
      expect(last.truncated).toBe(true);
      expect(last.content).toMatch(/\.$/);
      const recount = excerpts.reduce((n, e) => n + countTokens(e.content), 0);
      expect(res.body.token_count).toBe(recount);
      expect(res.body.token_count).toBeLessThanOrEqual(80);
      const scores = excerpts.map((e) => e.rerank_score);
      expect(scores).toEqual([...scores].sort((x, y) => y - x));
    });
  });

  describe('deadlines', () => {
    // The faulty dependencies never answer: a missed deadline hangs until jest's timeout.
    const within = async (body: Record<string, unknown>) => {
      const res = await context(body);
      // An answer at all is the proof: the dependencies never answer, so only the deadline
      // ends the call (timings are measured by bench:context, not asserted here).
      expect(res.status).toBe(200);
      return res.body;
    };

    it('ships vector-ordered hits when the reranker hangs forever', async () => {
      rerankFault.mode = 'hang';
      const body = await within({
        transcript: 'blender motor',
        contact_uid: 'ctc_bp',
        timeout_ms: 300,
      });
      expect(body.meta).toMatchObject({
        reranked: false,
        partial: true,
        had_vector_hits: true,
        had_live_lookup: false,
      });
      const vectorScores = body.historical_excerpts.map((e) => e.vector_score);
      expect(vectorScores).toEqual([...vectorScores].sort((x, y) => y - x));
    });

    it('ships the bundle without live fields when the live lookup hangs', async () => {
      liveFault.mode = 'hang';
      const body = await within({
        transcript: 'delivery address',
        contact_uid: 'ctc_pii',
        timeout_ms: 300,
      });
      expect(body.contact).toEqual({ live_fields_available: false, error: 'timeout' });
      expect(body.meta).toMatchObject({
        partial: true,
        had_live_lookup: false,
        had_vector_hits: true,
        reranked: true,
      });
    });

    it('returns an empty partial bundle on time when every surface hangs', async () => {
      liveFault.mode = embedFault.mode = 'hang';
      const body = await within({
        transcript: 'a brand new question nobody asked before',
        contact_uid: 'ctc_pii',
        timeout_ms: 250,
      });
      expect(body.historical_excerpts).toEqual([]);
      expect(body.token_count).toBe(0);
      expect(body.meta).toMatchObject({
        partial: true,
        had_vector_hits: false,
        had_live_lookup: false,
      });
    });

    it('counts from arrival: a slow rate limiter spends the deadline before the handler runs', async () => {
      // The limiter's round trip "takes" 900 ms of an 800 ms deadline on a skewed clock (no
      // real wait): the build must start with nothing left, and say where the time went.
      const now = performance.now.bind(performance);
      let skew = 0;
      const clock = jest.spyOn(performance, 'now').mockImplementation(() => now() + skew);
      limiter.onCount = () => (skew += 900);
      try {
        const res = await context({
          transcript: 'blender motor',
          contact_uid: 'ctc_bp',
          timeout_ms: 800,
        });
        expect(res.status).toBe(200);
        expect(res.body.meta.stages.intake_ms).toBeGreaterThanOrEqual(900);
        expect(res.body.meta.elapsed_ms).toBeGreaterThanOrEqual(900);
        expect(res.body.meta.partial).toBe(true);
        expect(res.body.historical_excerpts).toEqual([]);
      } finally {
        limiter.onCount = undefined;
        clock.mockRestore();
      }
      // The same request with a prompt limiter has its whole budget.
      const timely = await context({ transcript: 'blender motor', contact_uid: 'ctc_bp' });
      expect(timely.body.meta.partial).toBe(false);
      expect(timely.body.historical_excerpts.length).toBeGreaterThan(0);
    });

    it('degrades to a vector-only bundle when Podium rejects the credentials', async () => {
      liveFault.mode = 'reject';
      liveFault.rejectWith = new PodiumAuthError();
      const res = await context({ transcript: 'delivery address', contact_uid: 'ctc_pii' });
      expect(res.body.contact).toEqual({ live_fields_available: false, error: 401 });
      expect(res.body.meta.had_vector_hits).toBe(true);
    });
  });

  describe('bad input', () => {
    it.each([
      ['empty transcript', { transcript: '' }],
      ['blank transcript', { transcript: '   ' }],
      ['oversize transcript', { transcript: 'x'.repeat(8001) }],
      ['wrong-type contact_uid', { transcript: 'hi', contact_uid: 42 }],
      ['timeout_ms too small', { transcript: 'hi', timeout_ms: 1 }],
      ['timeout_ms too large', { transcript: 'hi', timeout_ms: 60000 }],
      ['unknown field', { transcript: 'hi', contactId: 'x' }],
      ['asked_at not a date', { transcript: 'hi', asked_at: 'last Saturday' }],
      ['asked_at a number', { transcript: 'hi', asked_at: 1_700_000_000_000 }],
      ['asked_at without a time', { transcript: 'hi', asked_at: '2026-05-02' }],
      ['asked_at without a zone', { transcript: 'hi', asked_at: '2026-05-02T10:00:00' }],
      ['asked_at an ISO week date', { transcript: 'hi', asked_at: '2026-W18-5T10:00:00Z' }],
      ['asked_at on 30 February', { transcript: 'hi', asked_at: '2026-02-30T10:00:00Z' }],
      ['asked_at in year 0001', { transcript: 'hi', asked_at: '0001-01-01T00:00:00Z' }],
      ['asked_at past 2199', { transcript: 'hi', asked_at: '9999-12-31T23:59:59Z' }],
      ['asked_at oversize', { transcript: 'hi', asked_at: `2026-05-02T10:00:00.${'1'.repeat(64)}Z` }],
      ['asked_at with NUL', { transcript: 'hi', asked_at: '2026-05-02T10:00:00Z\u0000' }],
    ])('%s → 400 validation_failed', async (_name, body) => {
      const res = await postJson<{ error: string; request_id: string }>(`${t.url}/context`, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.request_id).toEqual(expect.any(String));
    });

    it.each([
      ['a call time', '2026-05-02T15:04:05Z'],
      ['an offset and milliseconds', '2026-05-02T15:04:05.123+02:00'],
      ['null (as omitted)', null],
    ])('asked_at %s is accepted', async (_name, askedAt) => {
      const res = await context({
        transcript: 'what did I order last Saturday',
        contact_uid: 'ctc_orders',
        asked_at: askedAt,
      });
      expect(res.status).toBe(200);
    });
  });

  describe('companion endpoints', () => {
    it('POST /context/prompt builds the four blocks under its own budget', async () => {
      const res = await postJson<{
        system: string;
        user: string;
        blocks: Array<{ name: string }>;
        token_count: number;
      }>(`${t.url}/context/prompt`, {
        transcript: 'where should we deliver',
        contact_uid: 'ctc_pii',
        prompt_max_tokens: 400,
      });
      expect(res.status).toBe(200);
      expect(res.body.blocks.map((b) => b.name)).toEqual([
        'SYSTEM',
        'LIVE CONTACT',
        'HISTORICAL CONTEXT',
        'TRANSCRIPT TURN',
      ]);
      expect(res.body.user).toContain('+1 555 0199');
      expect(res.body.user).toContain('[REDACTED:ADDR]');
      expect(res.body.user).not.toContain('Evergreen');
      expect(res.body.token_count).toBe(countTokens(res.body.system) + countTokens(res.body.user));
      expect(res.body.token_count).toBeLessThanOrEqual(400);
    });

    it('POST /relevance scores a relevant candidate above an unrelated one', async () => {
      const res = await postJson<{ scores: number[] }>(`${t.url}/relevance`, {
        query: 'did they ask about the refund policy',
        candidates: [
          'Our policy is 30-day refunds with a receipt.',
          'The weather in Lisbon is sunny today.',
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body.scores[0]).toBeGreaterThan(res.body.scores[1]);
      res.body.scores.forEach((x) => expect(x).toBeGreaterThanOrEqual(0));
      const neither = await postJson<{ error: string }>(`${t.url}/relevance`, { query: 'x' });
      expect(neither.body.error).toBe('invalid_candidates');
    });

    it('GET /metrics exposes stage latencies and the partial rate', async () => {
      const text = await (await fetch(`${t.url}/metrics`)).text();
      expect(text).toMatch(/context_bridge_context_requests_total \d+/);
      expect(text).toMatch(/context_bridge_context_partial_total [1-9]/);
      expect(text).toContain(
        'context_bridge_context_stage_duration_seconds_bucket{le="0.005",stage="rerank"}',
      );
      expect(text).toContain(
        'context_bridge_http_request_duration_seconds_count{route="/context",method="POST",status="200"}',
      );
      expect(text).not.toContain('ctc_');
    });
  });

  describe('fuzz', () => {
    it('answers 500 malformed bodies without a single 5xx', async () => {
      const arbitrary = fc.oneof(
        fc.jsonValue(),
        fc.record(
          { transcript: fc.jsonValue(), contact_uid: fc.jsonValue(), timeout_ms: fc.jsonValue() },
          { requiredKeys: [] },
        ),
        fc.record(
          {
            transcript: fc.string({ maxLength: 50 }),
            max_tokens: fc.integer(),
            pool_k: fc.double(),
            final_k: fc.string(),
          },
          { requiredKeys: [] },
        ),
      );
      const bodies = fc.sample(arbitrary, { numRuns: 450, seed: 42 }).map((v) => JSON.stringify(v));
      const raw = fc.sample(fc.string({ maxLength: 40 }), { numRuns: 50, seed: 7 });
      const statuses: number[] = [];
      for (const body of [...bodies, ...raw]) {
        const res = await fetch(`${t.url}/context`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        await res.arrayBuffer();
        statuses.push(res.status);
      }
      expect(statuses).toHaveLength(500);
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
    });
  });
});
