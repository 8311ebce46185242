import { Database, withDatabaseScope } from '@app/database';

import { bootTestApp, postJson, type TestApp } from './support/app';

/**
 * Labels stored with history leave with it: a channel written before ingest held channels
 * to a word (or by any path that skips the ingest DTO) and a sender name. Written straight
 * into the database here, they must come back from no route as stored: the channel leaves
 * as a word or `redacted`, the sender redacted like the text.
 */
const CONTACT = 'ctc_stored_labels';
/** A phone number as a stored channel, and one in a sender's name. */
const PII_CHANNEL = '+1 415 555 0132';
const PII_SENDER = 'Sam 415-555-0199';
/** Any of the two numbers, however its groups are joined. */
const LEAK = /415\D{0,3}555\D{0,3}01(?:32|99)|4155550(?:132|199)/;
const TEXT = 'my espresso machine is leaking water again';

describe('stored labels on the way out (e2e)', () => {
  let sut: TestApp;
  const leaked = (body: unknown): string | undefined => LEAK.exec(JSON.stringify(body))?.[0];

  beforeAll(async () => {
    sut = await bootTestApp();
    const records = [0, 1].map((i) => ({
      conversation_uid: 'conv_stored_labels',
      contact_uid: CONTACT,
      channel: 'sms',
      occurred_at: new Date(Date.UTC(2026, 4, 1, 10, i)).toISOString(),
      sender: 'customer',
      text: `${TEXT} (${i})`,
    }));
    const res = await postJson(`${sut.url}/ingest/conversations`, records);
    expect(res.status).toBe(200);
    // Past the ingest DTO: what an older release or another writer may have stored.
    const db = sut.app.get(Database);
    await withDatabaseScope({ kind: 'every' }, async () => {
      const windows = await db.execute(
        'UPDATE podium_conversations SET channel = $1 WHERE contact_uid = $2',
        [PII_CHANNEL, CONTACT],
      );
      const messages = await db.execute(
        'UPDATE conversation_messages SET channel = $1, sender = $2 WHERE contact_uid = $3',
        [PII_CHANNEL, PII_SENDER, CONTACT],
      );
      expect(windows).toBeGreaterThan(0);
      expect(messages).toBe(2);
    });
  }, 120_000);
  afterAll(() => sut?.close());

  it('POST /context and its explain mode return the channel as a word', async () => {
    const res = await postJson<{ historical_excerpts: Array<{ channel: string }> }>(
      `${sut.url}/context`,
      { transcript: TEXT, contact_uid: CONTACT, explain: true },
    );
    expect(res.status).toBe(200);
    expect(res.body.historical_excerpts.length).toBeGreaterThan(0);
    expect(res.body.historical_excerpts.map((e) => e.channel)).toContain('redacted');
    expect(leaked(res.body)).toBeUndefined();
  });

  it('POST /context/prompt renders no stored channel', async () => {
    const res = await postJson<{ user: string }>(`${sut.url}/context/prompt`, {
      transcript: TEXT,
      contact_uid: CONTACT,
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toContain('channel: redacted');
    expect(leaked(res.body)).toBeUndefined();
  });

  it('POST /search returns the channel as a word', async () => {
    const res = await postJson<{ hits: Array<{ channel: string }> }>(`${sut.url}/search`, {
      query: TEXT,
      contact_uid: CONTACT,
    });
    expect(res.status).toBe(200);
    expect(res.body.hits.map((h) => h.channel)).toContain('redacted');
    expect(leaked(res.body)).toBeUndefined();
  });

  it('POST /v1/vector_stores/{contact}/search keeps it out of attributes and filenames', async () => {
    const res = await postJson<{ data: Array<{ filename: string }> }>(
      `${sut.url}/v1/vector_stores/${CONTACT}/search`,
      { query: TEXT },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(res.body.data[0].filename).toMatch(/^redacted-/);
    expect(leaked(res.body)).toBeUndefined();
  });

  it('POST /calls returns recent messages with the channel a word and the sender redacted', async () => {
    const res = await postJson<{ recent_messages: Array<{ channel: string; sender: string }> }>(
      `${sut.url}/calls`,
      { call_id: 'call_stored_labels', contact_uid: CONTACT },
    );
    expect(res.status).toBe(200);
    expect(res.body.recent_messages.length).toBe(2);
    expect(res.body.recent_messages[0]).toMatchObject({
      channel: 'redacted',
      sender: 'Sam [REDACTED:PHONE]',
    });
    expect(leaked(res.body)).toBeUndefined();
  });
});
