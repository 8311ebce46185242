import { OFFLOAD_MIN_CHARS, Redactor } from '@app/redaction';

import { RedactionPool } from '../libs/redaction/src/worker/redaction-pool';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { message } from './support/auth-fixtures';

/**
 * Caller-supplied text that reaches the redactor outside `/redact` (a bundle in
 * `/context/prompt`, an ingested or webhook message) is masked on the worker pool once it
 * is large, so no such request holds the event loop (and `/health/live`) for its length.
 * Proven by where the work runs: the pool gets the texts and the main thread's redactor
 * never sees them.
 */
describe('large caller text is redacted on a worker (e2e)', () => {
  let t: TestApp;
  let pooled: jest.SpyInstance;
  let inline: jest.SpyInstance;

  /** Texts the main thread redacted since the last reset. */
  const inlineTexts = (): string[] => inline.mock.calls.map(([text]) => text as string);

  beforeAll(async () => {
    t = await bootTestApp();
  });
  beforeEach(() => {
    pooled = jest.spyOn(RedactionPool.prototype, 'redactAll');
    inline = jest.spyOn(Redactor.prototype, 'redact');
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(() => t?.close());

  const excerpt = (i: number) => ({
    content: `${'We talked about the espresso machine again. '.repeat(20)}call 415 555 01${10 + i}`,
    rerank_score: 1 - i / 100,
  });

  it('masks a large /context/prompt bundle on the worker, in one hand-off', async () => {
    const excerpts = Array.from({ length: 40 }, (_, i) => excerpt(i));
    expect(excerpts.reduce((n, e) => n + e.content.length, 0)).toBeGreaterThan(OFFLOAD_MIN_CHARS);
    const res = await postJson<{ user: string }>(`${t.url}/context/prompt`, {
      transcript: 'does the espresso machine still leak',
      bundle: { contact: {}, historical_excerpts: excerpts },
      prompt_max_tokens: 200_000,
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toContain('[REDACTED:PHONE]');
    expect(res.body.user).not.toMatch(/415 555 01\d\d/);
    expect(pooled).toHaveBeenCalledTimes(1); // old code: never, the loop did it all
    expect(pooled.mock.calls[0][0]).toEqual(excerpts.map((e) => e.content));
    const contents = new Set(excerpts.map((e) => e.content));
    expect(inlineTexts().filter((text) => contents.has(text))).toEqual([]);
  });

  it('masks a small bundle inline: the hand-off costs more than the work', async () => {
    const res = await postJson<{ user: string }>(`${t.url}/context/prompt`, {
      transcript: 'does the espresso machine still leak',
      bundle: { contact: {}, historical_excerpts: [excerpt(0)] },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toContain('[REDACTED:PHONE]');
    expect(pooled).not.toHaveBeenCalled();
    expect(inlineTexts()).toContain(excerpt(0).content);
  });

  it('masks a large ingested message on the worker, not on the loop', async () => {
    const text = `${'The boiler leaks water every morning. '.repeat(400)}mail jane@example.com`;
    expect(text.length).toBeGreaterThanOrEqual(OFFLOAD_MIN_CHARS);
    const res = await postJson<{ inserted: number }>(`${t.url}/ingest/conversations`, [
      message('ctc_offload', undefined, 0, text),
    ]);
    expect(res.status).toBe(200);
    expect(res.body.inserted).toBe(1);
    expect(pooled).toHaveBeenCalledWith([text]); // old code: never
    expect(inlineTexts()).not.toContain(text);
  });
});
