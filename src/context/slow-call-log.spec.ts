import { Logger } from '@nestjs/common';
import { of } from 'rxjs';

import { InvalidEnvironmentError, loadConfig } from '../config/load-config';
import { ContextController } from './context.controller';
import { type ContextBundle } from './context.dto';
import { SlowCallInterceptor } from './slow-call.interceptor';
import { SlowCallLog } from './slow-call-log';

const KEY = 'k'.repeat(32);
const CONTACT = '+15551234567';
const TRANSCRIPT = 'my card number is 4111 and I live on Elm Street';

function bundle(elapsed: number): ContextBundle {
  return {
    contact: { live_fields_available: false },
    historical_excerpts: [{ content: 'an excerpt of Elm Street history' }],
    token_count: 9,
    meta: {
      query: TRANSCRIPT,
      elapsed_ms: elapsed,
      timeout_ms: 200,
      partial: false,
      stages: { intake_ms: 0.2, queue_ms: 0, coalesce_ms: 0.1, embed_ms: 2, search_ms: 80.5 },
    },
  } as unknown as ContextBundle;
}

function logFor(env: Record<string, string>) {
  const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  const sut = new SlowCallLog(loadConfig({ TELEMETRY_HASH_KEY: KEY, ...env }));
  return { sut, lines: () => warn.mock.calls.map((c) => String(c[0])) };
}

afterEach(() => jest.restoreAllMocks());

describe('SlowCallLog', () => {
  it('logs nothing while SLOW_CALL_LOG_MS is unset', () => {
    const { sut, lines } = logFor({});
    expect(sut.enabled).toBe(false);
    sut.observe(bundle(5000), CONTACT);
    expect(lines()).toEqual([]);
  });

  it('logs a call over the threshold with its stage waterfall, the contact only as its hash', () => {
    const { sut, lines } = logFor({ SLOW_CALL_LOG_MS: '50' });
    const answer = bundle(83.1);
    expect(sut.observe(answer, CONTACT)).toBe(answer);
    expect(lines()).toHaveLength(1);
    const [line] = lines();
    expect(line).toContain('slow /context 83.1 ms (threshold 50)');
    expect(line).toMatch(/contact h:[0-9a-f]{16} first-seen/);
    // Starts derived from the fixed pipeline order: search begins after embed.
    expect(line).toContain('embed@0.3+2 search@2.3+80.5');
    for (const secret of [CONTACT, '5551234567', 'Elm Street', '4111', 'card']) {
      expect(line).not.toContain(secret);
    }
  });

  it('leaves calls under the threshold out, but still remembers their contact', () => {
    const { sut, lines } = logFor({ SLOW_CALL_LOG_MS: '50' });
    sut.observe(bundle(49.9), CONTACT);
    sut.observe(bundle(60), CONTACT);
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).not.toContain('first-seen');
  });

  it('holds to 20 lines a second when every call is slow, and says how many it dropped', () => {
    const { sut, lines } = logFor({ SLOW_CALL_LOG_MS: '1' });
    for (let i = 0; i < 25; i++) {
      sut.observe(bundle(100), undefined, 1_000_500);
    }
    expect(lines()).toHaveLength(20);
    sut.observe(bundle(100), undefined, 1_001_000);
    expect(lines()).toHaveLength(21);
    expect(lines()[20]).toContain('5 slow calls not logged before this one');
    expect(lines()[20]).toContain('contact none');
  });

  it('remembers at most 10,000 contacts: a flood of distinct ids evicts the oldest', () => {
    const { sut, lines } = logFor({ SLOW_CALL_LOG_MS: '50' });
    sut.observe(bundle(10), 'first');
    for (let i = 0; i < 10_000; i++) {
      sut.observe(bundle(10), `flood-${i}`);
    }
    sut.observe(bundle(60), 'first');
    expect(lines()[0]).toContain('first-seen');
  });
});

describe('SLOW_CALL_LOG_MS', () => {
  it.each(['0', '-5', 'abc', '1.5', '600001', '1e12'])('refuses %p', (value) => {
    expect(() => loadConfig({ SLOW_CALL_LOG_MS: value })).toThrow(InvalidEnvironmentError);
    expect(() => loadConfig({ SLOW_CALL_LOG_MS: value })).toThrow(/SLOW_CALL_LOG_MS/);
  });

  it('is the threshold in ms when set', () => {
    expect(loadConfig({ SLOW_CALL_LOG_MS: '250' }).telemetry.slowCallMs).toBe(250);
    expect(loadConfig({}).telemetry.slowCallMs).toBeUndefined();
  });
});

describe('SlowCallInterceptor', () => {
  const http = (cls: unknown, handler: unknown) =>
    ({
      getClass: () => cls,
      getHandler: () => handler,
      switchToHttp: () => ({ getRequest: () => ({ body: { contact_uid: CONTACT } }) }),
    }) as never;

  it('observes POST /context answers and passes every other route through', async () => {
    const { sut, lines } = logFor({ SLOW_CALL_LOG_MS: '50' });
    const interceptor = new SlowCallInterceptor(sut);
    const handle = { handle: () => of(bundle(70)) };
    await new Promise((resolve) =>
      interceptor
        .intercept(http(ContextController, ContextController.prototype.fetch), handle)
        .subscribe({ complete: () => resolve(undefined) }),
    );
    expect(lines()).toHaveLength(1);
    await new Promise((resolve) =>
      interceptor
        .intercept(http(ContextController, ContextController.prototype.buildPrompt), handle)
        .subscribe({ complete: () => resolve(undefined) }),
    );
    expect(lines()).toHaveLength(1);
  });
});
