import { Server } from 'node:http';
import { PassThrough } from 'node:stream';

import { SERVER_TIMEOUTS } from '../create-app';
import { ERROR_CODES } from './error-body';
import { clientErrors } from './framework-errors';

/** What `clientErrors` writes to a socket, and whether it closed it. */
function answer(code: string): { raw: string; destroyed: boolean } {
  const socket = new PassThrough();
  let raw = '';
  socket.on('data', (chunk: Buffer) => (raw += chunk.toString('latin1')));
  clientErrors(Object.assign(new Error('refused'), { code }), socket);
  return { raw, destroyed: socket.destroyed };
}

describe('clientErrors (requests Node refused before Fastify saw them)', () => {
  it.each([
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'request_timeout'],
    ['HPE_HEADER_OVERFLOW', 431, 'headers_too_large'],
    ['HPE_UNEXPECTED_CONTENT_LENGTH', 400, 'malformed_request'],
  ])('%s: %s %s as a problem, and the connection closed', (code, status, error) => {
    const sut = answer(code);
    const [head, body] = sut.raw.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(head).toContain('Connection: close');
    expect(JSON.parse(body)).toMatchObject({ status, error });
    expect(sut.destroyed).toBe(true);
  });

  it('catalogues request_timeout with the timeouts the server applies (headers 60 s, request 120 s)', () => {
    // Node's default headersTimeout is min(60 s, requestTimeout): headers time out first.
    const server = new Server({ requestTimeout: SERVER_TIMEOUTS.requestTimeout });
    expect(ERROR_CODES.request_timeout).toContain(
      `headers within ${server.headersTimeout / 1000} s`,
    );
    expect(ERROR_CODES.request_timeout).toContain(`${server.requestTimeout / 1000} s`);
  });
});
