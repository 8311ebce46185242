import { bootTestApp, postJson, type TestApp } from './support/app';

/**
 * A held-out attack on what callers type into fields, against the running service: values
 * that pass the first layer of validation and broke something behind it (a 500 that sank a
 * whole ingest batch, metadata returned unredacted with every excerpt), and 400s that quoted
 * the caller's own keys back, PII and megabytes included.
 */
interface IngestReport {
  received: number;
  inserted: number;
  failed: Array<{ index: number; error: string }>;
}
interface Problem {
  error: string;
  message: string;
  detail: string;
}

const EMAIL = 'jane.doe@example.com';
const PHONE = '+1 415 555 0132';
const CARD = '4111111111111111';

const message = (over: Record<string, unknown>, i = 0) => ({
  conversation_uid: `conv_hostile_${i}`,
  contact_uid: 'ctc_hostile',
  channel: 'sms',
  occurred_at: '2026-05-01T10:00:00Z',
  sender: 'customer',
  text: `The walnut dresser number ${i} ships on Friday.`,
  ...over,
});

describe('hostile field values (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp({ RATE_LIMIT_PER_IP_PER_MINUTE: '0' });
  });
  afterAll(() => t?.close());

  const ingest = (path: string, records: unknown[]) =>
    postJson<IngestReport>(`${t.url}${path}`, records);

  it('a NUL in a stored label fails its own record by index, never the batch (was a 500)', async () => {
    const conversations = await ingest('/ingest/conversations', [
      message({}, 0),
      message({ channel: 's\u0000ms' }, 1),
      message({ sender: 'cust\u0000omer' }, 2),
    ]);
    expect(conversations.status).toBe(200);
    expect(conversations.body.failed).toEqual([
      { index: 1, error: expect.stringContaining('channel must not contain NUL') as string },
      { index: 2, error: 'sender must not contain NUL characters' },
    ]);
    expect(conversations.body.inserted).toBeGreaterThan(0);

    const kb = await ingest('/ingest/kb', [
      { topic_id: 't_ok', title: 'Returns', summary: 'How returns work.', text: 'Return it.' },
      { topic_id: 't_a', title: 'Ti\u0000tle', summary: 'S.', text: 'Body.' },
      { topic_id: 't_b', title: 'T', theme_id: 'th\u0000', summary: 'S.', text: 'Body.' },
    ]);
    expect(kb.status).toBe(200);
    expect(kb.body.failed).toEqual([
      { index: 1, error: 'title must not contain NUL characters' },
      { index: 2, error: 'theme_id must not contain NUL characters' },
    ]);
  });

  it('ISO 8601 forms JavaScript cannot read are refused by index (were a 500 for the batch)', async () => {
    const unreadable = ['2026-W18-5', '2026-121', '2026-05-01T10'];
    const readable = ['2026-05-01T10:00:00+14:00', '2026-05-01T10:00:00.123456789Z', '2026-05-01'];
    const records = [...unreadable, ...readable].map((occurred_at, i) =>
      message({ occurred_at, conversation_uid: `conv_ts_${i}` }, i),
    );
    const res = await ingest('/ingest/conversations', records);
    expect(res.status).toBe(200);
    expect(res.body.failed).toEqual(
      unreadable.map((_, index) => ({
        index,
        error: 'occurred_at must be a date-time such as 2026-01-05T10:00:00Z',
      })),
    );
    expect(res.body.inserted).toBeGreaterThan(0);
  });

  it('a channel holding an address or a number is refused: it would leave with every excerpt, unredacted', async () => {
    const hostile = [EMAIL, PHONE, CARD, 'sms jane.doe@example.com', '+14155550132'];
    const res = await ingest(
      '/ingest/conversations',
      hostile.map((channel, i) =>
        message({ channel, contact_uid: 'ctc_channel', conversation_uid: `conv_ch_${i}` }, i),
      ),
    );
    expect(res.body.failed.map((f) => f.index)).toEqual(hostile.map((_, i) => i));
    expect(res.body.inserted).toBe(0);
    for (const channel of ['sms', 'email', 'call', 'webchat', 'voice', 'google_business', 'fb-1']) {
      const ok = await ingest('/ingest/conversations', [message({ channel }, 99)]);
      expect({ channel, failed: ok.body.failed }).toEqual({ channel, failed: [] });
    }
    const bundle = await postJson<{ historical_excerpts: unknown[] }>(`${t.url}/context`, {
      transcript: 'when does the walnut dresser ship',
      contact_uid: 'ctc_channel',
    });
    expect(JSON.stringify(bundle.body)).not.toMatch(/jane|4155550132|4111/);
  });

  it('lone surrogates between digit groups are refused, not stored as U+FFFD past redaction', async () => {
    // "4111\ud8001111…": no detector read it, and the store kept "4111�1111�1111�1111".
    const split = 'card 4111\ud8001111\ud8001111\ud8001111 phone 415\udc00555\ud8000132';
    const redact = await postJson<Problem>(`${t.url}/redact`, { text: split });
    expect([redact.status, redact.body.message]).toEqual([
      400,
      'text must be well-formed Unicode (no lone surrogates)',
    ]);
    const context = await postJson<Problem>(`${t.url}/context`, { transcript: split });
    expect(context.status).toBe(400);
    const stored = await ingest('/ingest/conversations', [
      message({ text: split, contact_uid: 'ctc_surrogate' }),
      message({ sender: 'cust\ud800omer', contact_uid: 'ctc_surrogate' }, 1),
    ]);
    expect(stored.body.failed).toEqual([
      { index: 0, error: 'text must be well-formed Unicode (no lone surrogates)' },
      { index: 1, error: 'sender must be well-formed Unicode (no lone surrogates)' },
    ]);
    // A pair is a character: emoji and other astral text still pass.
    const emoji = await postJson<{ text: string }>(`${t.url}/redact`, { text: 'ok 👍 𝐚' });
    expect(emoji.body.text).toBe('ok 👍 𝐚');
  });

  it('a 400 never quotes an unknown key that is not a field-like name (PII in keys)', async () => {
    for (const key of [
      EMAIL,
      `call me on ${PHONE}`,
      CARD,
      `x\u202Eevil`,
      'property a property b',
    ]) {
      const res = await postJson<Problem>(`${t.url}/context`, { transcript: 'hi', [key]: 1 });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.message).toBe(
        'a property with an unexpected name (not shown) should not exist',
      );
      expect(JSON.stringify(res.body)).not.toMatch(/jane|415|4111|evil/);
    }
    // A nested unknown key keeps its path, and a field-like name is still named.
    const nested = await postJson<Problem>(`${t.url}/chat`, {
      query: 'how do I give feedback',
      userId: 'u1',
      history: [{ role: 'user', content: 'x', [EMAIL]: 1, extra_field: 2 }],
    });
    expect(nested.body.message).toContain(
      'history.0.a property with an unexpected name (not shown) should not exist',
    );
    expect(nested.body.message).toContain('history.0.property extra_field should not exist');
    expect(nested.body.message).not.toContain('jane');
  });

  it('a 400 for thousands of unknown keys, or one key of 900 KB, stays a small answer', async () => {
    const many: Record<string, unknown> = { transcript: 'hi' };
    for (let i = 0; i < 20_000; i++) {
      many[`k${i}`] = 1;
    }
    const flood = await fetch(`${t.url}/context`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(many),
    });
    const floodText = await flood.text();
    expect(flood.status).toBe(400);
    // Was 1.37 MB from a 0.6 MB body: every key quoted twice (message and detail).
    expect(floodText.length).toBeLessThan(4096);
    expect((JSON.parse(floodText) as Problem).message).toMatch(/; and 19980 more$/);

    const huge = await fetch(`${t.url}/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'x', top_k: 1, ['a'.repeat(900_000)]: 1 }),
    });
    expect(huge.status).toBe(400);
    expect((await huge.text()).length).toBeLessThan(4096);
  });
});
