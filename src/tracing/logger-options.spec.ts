import { Writable } from 'node:stream';

import { keyedHash } from '@app/common';
import pino, { type LoggerOptions } from 'pino';

import { type AppConfig } from '../config/app-config';
import { loggerOptions } from './logger-options';

const KEY = 'logger-options-test-key-0123456789abcdef';
const EMAIL = 'jane.doe@example.com';
const PHONE = '+14155550134';
const LEAK = /jane|example\.com|4155550134/i;
const hashOf = (id: string) => `h:${keyedHash(KEY, id)}`;

const config = {
  server: { logLevel: 'trace' },
  telemetry: { enabled: false, serviceName: 'x', hashKey: KEY },
} as unknown as AppConfig;

/** A pino logger with the app's options, writing its lines to an array. */
function logger(): { log: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const options = loggerOptions(config).pinoHttp as LoggerOptions;
  return { log: pino(options, sink), lines };
}

describe('loggerOptions', () => {
  const options = loggerOptions(config).pinoHttp as LoggerOptions & {
    serializers: Record<string, (value: unknown) => unknown>;
  };

  it('logs a request URL with its contact id as the keyed hash', () => {
    const req = {
      id: 'r1',
      method: 'DELETE',
      url: `/contacts/${encodeURIComponent(EMAIL)}/history`,
    };
    expect(options.serializers.req(req)).toEqual({
      id: 'r1',
      method: 'DELETE',
      url: `/contacts/${hashOf(EMAIL)}/history`,
    });
    const search = { id: 'r2', method: 'POST', url: `/v1/vector_stores/${PHONE}/search` };
    expect(options.serializers.req(search)).toMatchObject({
      url: `/v1/vector_stores/${hashOf(PHONE)}/search`,
    });
  });

  it('hashes ids in messages and in errors (message and stack), keeping type and code', () => {
    const { log, lines } = logger();
    log.warn(`history purge failed: no row for ${EMAIL}`);
    const error = Object.assign(new TypeError(`duplicate key (contact_uid)=(${PHONE})`), {
      code: '23505',
    });
    log.error({ err: error }, 'unhandled');
    log.error({ request_id: 'r', err: { type: 'X', code: 'c', frames: ['at f (a.ts:1)'] } }, 'm');
    expect(lines.join('')).not.toMatch(LEAK);
    const [message, failed, filtered] = lines.map(
      (l) => JSON.parse(l) as Record<string, Record<string, unknown>>,
    );
    expect(message.msg).toBe(`history purge failed: no row for ${hashOf(EMAIL)}`);
    expect(failed.err).toMatchObject({
      type: 'TypeError',
      code: '23505',
      message: `duplicate key (contact_uid)=(${hashOf(PHONE)})`,
    });
    expect(String(failed.err.stack)).toContain(hashOf(PHONE));
    expect(filtered.err).toEqual({ type: 'X', code: 'c', frames: ['at f (a.ts:1)'] });
  });

  it('leaves lines without ids as they were', () => {
    const { log, lines } = logger();
    log.info({ n: 3 }, 'store maintenance done in 12 ms');
    expect(JSON.parse(lines[0])).toMatchObject({ n: 3, msg: 'store maintenance done in 12 ms' });
  });
});
