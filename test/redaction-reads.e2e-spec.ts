import { bootTestApp, postJson, type TestApp } from './support/app';

/**
 * PII written the ways an auditor tries to slip it past the detectors, ingested as a
 * customer's messages, then read back through every route that returns history. Nothing
 * readable may leave: neither the whole value nor the halves of one the customer split
 * over two messages (the window joins them into one excerpt).
 */
const CONTACT = 'ctc_redaction_reads';
const TURNS = [
  'my card number is 4111 1111', // a card split over two messages
  '1111 1111',
  'and my ssn is 536-22-', // an SSN split over two messages
  '1234',
  'the other card is 5500 - 0000 - 0000 - 0004, write to jane.roe&#64;example.com',
  'or call 415\u00b7555\u00b70134, or jroe[at]example[.]org for the delivery',
];
/** What must never come back, in any route's answer. */
const RAW = ['4111 1111', '536-22-', '5500 - 0000', 'jane.roe', 'jroe[at]', '415\u00b7555'];

describe('redaction on every read of history (e2e)', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await bootTestApp();
    const records = TURNS.map((text, i) => ({
      conversation_uid: 'conv_redaction_reads',
      contact_uid: CONTACT,
      channel: 'sms',
      occurred_at: new Date(Date.UTC(2026, 4, 1, 10, 0, i)).toISOString(),
      sender: 'customer',
      text,
    }));
    const res = await postJson<{ inserted: number }>(`${sut.url}/ingest/conversations`, records);
    expect(res.status).toBe(200);
  });
  afterAll(() => sut.close());

  const query = 'card number ssn delivery call write';
  it.each<[string, string, unknown]>([
    ['POST /search', '/search', { query, contact_uid: CONTACT, top_k: 5 }],
    [
      'POST /context with explain',
      '/context',
      { transcript: query, contact_uid: CONTACT, explain: true },
    ],
    ['POST /context/prompt', '/context/prompt', { transcript: query, contact_uid: CONTACT }],
    ['the OpenAI vector-store adapter', `/v1/vector_stores/${CONTACT}/search`, { query }],
    [
      'MCP search_history',
      '/mcp',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_history', arguments: { query, contact_uid: CONTACT } },
      },
    ],
  ])('%s returns the excerpt masked, no value readable', async (_name, path, body) => {
    const res = await fetch(`${sut.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    // The raw answer: no fragment holds a character JSON escapes, so MCP's payload (JSON in
    // a JSON string) is searched the same way.
    const answer = await res.text();
    expect(answer).toContain('[REDACTED:CC]');
    expect(answer).toContain('[REDACTED:SSN]');
    expect(answer).toContain('[REDACTED:EMAIL]');
    expect(answer).toContain('[REDACTED:PHONE]');
    expect(RAW.filter((raw) => answer.includes(raw))).toEqual([]);
  });
});
