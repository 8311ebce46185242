import { type ErrorBody } from '../src/common/error-body';
import { bootTestApp, postJson, type TestApp } from './support/app';

interface RedactBody {
  text: string;
  entities: Array<{ type: string; start: number; end: number }>;
}

describe('POST /redact (e2e)', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await bootTestApp();
  });
  afterAll(() => sut.close());

  it('masks a card number and an email, with offsets into the submitted text', async () => {
    const text = 'card 4111 1111 1111 1111, mail jane@example.com';
    const res = await postJson<RedactBody>(`${sut.url}/redact`, { text });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      text: 'card [REDACTED:CC], mail [REDACTED:EMAIL]',
      entities: [
        { type: 'CREDIT_CARD', start: 5, end: 24 },
        { type: 'EMAIL', start: 31, end: 47 },
      ],
    });
    expect(res.body.entities.map((e) => text.slice(e.start, e.end))).toEqual([
      '4111 1111 1111 1111',
      'jane@example.com',
    ]);
  });

  it('masks a dictated phone number', async () => {
    const res = await postJson<RedactBody>(`${sut.url}/redact`, {
      text: 'my number is five five five oh one nine nine',
    });
    expect(res.status).toBe(200);
    expect(res.body.text).toBe('my number is [REDACTED:PHONE]');
  });

  it('returns text without PII unchanged', async () => {
    const text = 'Order ABC-12345 costs $1,234.56; v1.2.3 shipped at 2024-03-14T10:22:33Z.';
    const res = await postJson<RedactBody>(`${sut.url}/redact`, { text });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ text, entities: [] });
  });

  it.each<[string, unknown]>([
    ['a number', { text: 12345 }],
    ['an array', { text: ['4111 1111 1111 1111'] }],
    ['null', { text: null }],
    ['a missing text', {}],
    ['an unknown property', { text: 'hi', extra: true }],
  ])('rejects %s with 400 validation_failed', async (_name, body) => {
    const res = await postJson<ErrorBody>(`${sut.url}/redact`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation_failed');
    expect(typeof res.body.message).toBe('string');
    expect(res.body.request_id).toEqual(expect.any(String));
  });

  it('rejects a text over 64 Ki characters with 400 text_too_large', async () => {
    const res = await postJson<ErrorBody>(`${sut.url}/redact`, { text: 'a'.repeat(65_537) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('text_too_large');
    expect(res.body.request_id).toEqual(expect.any(String));
  });

  it('accepts a text of exactly 64 Ki characters', async () => {
    const text = `${'a'.repeat(65_536 - 17)} jane@example.com`;
    const res = await postJson<RedactBody>(`${sut.url}/redact`, { text });
    expect(res.status).toBe(200);
    expect(res.body.entities).toEqual([{ type: 'EMAIL', start: 65_520, end: 65_536 }]);
  });
});

describe('POST /redact with REDACT_ENTITIES (e2e)', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await bootTestApp({ REDACT_ENTITIES: 'EMAIL' });
  });
  afterAll(() => sut.close());

  it('masks only the configured entity types', async () => {
    const res = await postJson<RedactBody>(`${sut.url}/redact`, {
      text: 'card 4111 1111 1111 1111, mail jane@example.com',
    });
    expect(res.status).toBe(200);
    expect(res.body.text).toBe('card 4111 1111 1111 1111, mail [REDACTED:EMAIL]');
  });
});
