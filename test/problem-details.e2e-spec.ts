import { createHash } from 'node:crypto';

import { bootTestApp, type TestApp } from './support/app';

/**
 * Every error answer, whichever layer raises it (Fastify's body parser and router, the auth
 * guard, validation, the rate limiter), is an RFC 9457 problem with the stable code as its
 * `type`, and 429/503 say when to come back.
 */
const KEY = 'problem-details-key';
const PROBLEM = 'application/problem+json; charset=utf-8';

describe('errors as RFC 9457 problems', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp({
      API_KEYS: `ops:${createHash('sha256').update(KEY).digest('hex')}`,
      RATE_LIMIT_PER_KEY_PER_MINUTE: '2',
    });
  });
  afterAll(() => t.close());

  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${t.url}${path}`, init);
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      retryAfter: response.headers.get('retry-after'),
      body: (await response.json()) as Record<string, unknown>,
    };
  };
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    call(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY, ...headers },
      body,
    });

  it.each([
    ['an unknown route', () => call('/no-such-route'), 404, 'not_found'],
    [
      'a wrong key',
      () => post('/redact', '{"text":"x"}', { 'x-api-key': 'guess' }),
      401,
      'invalid_api_key',
    ],
    [
      'a path parameter longer than any id (raised by the router)',
      () =>
        call(`/contacts/ctc_${'y'.repeat(600)}/history`, {
          method: 'DELETE',
          headers: { 'x-api-key': KEY },
        }),
      414,
      'path_parameter_too_long',
    ],
    ['malformed JSON', () => post('/search', '{"query":'), 400, 'invalid_json'],
    ['an invalid field', () => post('/search', '{"query":42}'), 400, 'validation_failed'],
  ])('%s', async (_what, send, status, code) => {
    const answer = await send();
    expect(answer.status).toBe(status);
    expect(answer.type).toBe(PROBLEM);
    expect(answer.body).toMatchObject({
      type: `urn:context-bridge:problem:${code}`,
      title: expect.any(String),
      status,
      detail: expect.any(String),
      error: code,
      request_id: expect.any(String),
    });
    expect(answer.body.detail).toBe(answer.body.message);
  });

  it('an unknown route does not echo its path, which may hold a contact id', async () => {
    const answer = await call('/contacts/jane.roe@example.com/whatever');
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe('not_found');
    expect(JSON.stringify(answer.body)).not.toContain('jane.roe');
  });

  it('a rate-limited caller gets 429 with Retry-After', async () => {
    let answer = await post('/redact', '{"text":"hello"}');
    for (let i = 0; i < 3 && answer.status !== 429; i++) {
      answer = await post('/redact', '{"text":"hello"}');
    }
    expect(answer.status).toBe(429);
    expect(answer.type).toBe(PROBLEM);
    expect(answer.body).toMatchObject({
      type: 'urn:context-bridge:problem:rate_limited',
      status: 429,
    });
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  });
});
