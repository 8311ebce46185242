import { ConfigurationError, DependencyError, InvalidInputError } from '@app/common';
import { type ArgumentsHost, Logger } from '@nestjs/common';

import { AllExceptionsFilter } from './all-exceptions.filter';

function hostFor(sent: { status?: number; body?: unknown }): ArgumentsHost {
  const reply = {
    sent: false,
    raw: { headersSent: false },
    status(code: number) {
      sent.status = code;
      return this;
    },
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
    const sent: { status?: number; body?: unknown } = {};
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
    const sent: { status?: number; body?: unknown } = {};
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
    const sent: { status?: number; body?: unknown } = {};
    new AllExceptionsFilter().catch(new ConfigurationError('no model set'), hostFor(sent));
    expect(sent.status).toBe(500);
    expect(sent.body).toMatchObject({ error: 'configuration_error' });
    expect(warn).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalledTimes(1);
  });

  it('does not log client errors', () => {
    const sent: { status?: number; body?: unknown } = {};
    new AllExceptionsFilter().catch(new InvalidInputError('bad', 'no'), hostFor(sent));
    expect(sent.status).toBe(400);
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
  });
});
