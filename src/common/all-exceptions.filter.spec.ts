import { ConfigurationError, DependencyError, InvalidInputError } from '@app/common';
import { type ArgumentsHost, Logger } from '@nestjs/common';

import { TooManyRequestsError } from '../auth/auth.errors';
import { AllExceptionsFilter } from './all-exceptions.filter';

interface Sent {
  status?: number;
  body?: unknown;
  headers: Record<string, string>;
}

function hostFor(sent: Sent): ArgumentsHost {
  const reply = {
    sent: false,
    raw: { headersSent: false },
    code(code: number) {
      sent.status = code;
      return this;
    },
    header(name: string, value: string) {
      sent.headers[name.toLowerCase()] = value;
      return this;
    },
    hasHeader: (name: string) => name.toLowerCase() in sent.headers,
    send(body: unknown) {
      sent.body = body;
      return this;
    },
  };
  const request = { id: 'req-1' };
  return {
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }),
  } as unknown as ArgumentsHost;
}

describe('AllExceptionsFilter', () => {
  let warn: jest.SpyInstance;
  let error: jest.SpyInstance;

  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('logs a chosen 503 as a refusal with its code, not as an unhandled error', () => {
    const sent: Sent = { headers: {} };
    new AllExceptionsFilter().catch(
      new DependencyError('overloaded', 'busy: customer jane@example.com'),
      hostFor(sent),
    );
    expect(sent.status).toBe(503);
    expect(sent.body).toMatchObject({ error: 'overloaded', request_id: 'req-1' });
    expect(error).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith(
      { request_id: 'req-1', status: 503, code: 'overloaded' },
      'request refused',
    );
    expect(JSON.stringify(warn.mock.calls)).not.toContain('jane@example.com');
  });

  it('logs an unknown error with its stack frames but never its message', () => {
    const sent: Sent = { headers: {} };
    new AllExceptionsFilter().catch(new TypeError('boom for jane@example.com'), hostFor(sent));
    expect(sent.status).toBe(500);
    expect(sent.body).toMatchObject({ error: 'internal_error' });
    expect(error).toHaveBeenCalledTimes(1);
    const [fields, message] = error.mock.calls[0] as [{ err: { type: string } }, string];
    expect(message).toBe('unhandled error');
    expect(fields.err.type).toBe('TypeError');
    expect(JSON.stringify(error.mock.calls)).not.toContain('jane@example.com');
  });

  it('logs a known error with a 500 (not a chosen refusal) as an error', () => {
    const sent: Sent = { headers: {} };
    new AllExceptionsFilter().catch(new ConfigurationError('no model set'), hostFor(sent));
    expect(sent.status).toBe(500);
    expect(sent.body).toMatchObject({ error: 'configuration_error' });
    expect(warn).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalledTimes(1);
  });

  it('answers an RFC 9457 problem whose type is the stable code, keeping the 0.x fields', () => {
    const sent: Sent = { headers: {} };
    new AllExceptionsFilter().catch(
      new InvalidInputError('text_too_large', 'over 64 Ki'),
      hostFor(sent),
    );
    expect(sent.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(sent.body).toEqual({
      type: 'urn:context-bridge:problem:text_too_large',
      title: '/redact text over 64 Ki characters',
      status: 400,
      detail: 'over 64 Ki',
      error: 'text_too_large',
      message: 'over 64 Ki',
      request_id: 'req-1',
    });
    expect(sent.headers['retry-after']).toBeUndefined();
  });

  it('tells a refused client when to come back: Retry-After on 429 and 503', () => {
    const limited: Sent = { headers: {} };
    new AllExceptionsFilter().catch(
      new TooManyRequestsError('rate_limited', 'slow down', 7.2),
      hostFor(limited),
    );
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('8');
    const unavailable: Sent = { headers: {} };
    new AllExceptionsFilter().catch(
      new DependencyError('overloaded', 'busy'),
      hostFor(unavailable),
    );
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers['retry-after']).toBe('1');
    expect(unavailable.body).toMatchObject({
      status: 503,
      title: expect.stringContaining('/relevance'),
    });
  });

  it('does not log client errors', () => {
    const sent: Sent = { headers: {} };
    new AllExceptionsFilter().catch(new InvalidInputError('bad', 'no'), hostFor(sent));
    expect(sent.status).toBe(400);
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
  });
});
