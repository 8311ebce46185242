import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { type Duplex } from 'node:stream';

import { DomainError } from '@app/common';
import { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';

import { PROBLEM_MEDIA_TYPE, sendProblem, toErrorResponse } from './error-body';
import { admitPipelined, PipelineTooDeepError } from './pipeline-cap';

/**
 * The path parameter bound: any valid id (128 characters, `IsUid`) fits, even fully
 * percent-encoded (3 characters each).
 */
export const MAX_PARAM_LENGTH = 3 * 128;

/**
 * Errors Fastify's router raises before any route runs (a parameter past MAX_PARAM_LENGTH, a
 * malformed URL). Its own answers quote the path, which carries contact ids: these never do,
 * and are RFC 9457 problems with a stable code like every other 4xx.
 */
export function frameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  // No onRequest hook runs for these: the pipelining cap is counted here.
  const admitted = admitPipelined(request, reply);
  if (admitted === 'gone') {
    return;
  }
  const refusal =
    admitted === 'refused'
      ? new PipelineTooDeepError()
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new DomainError(
            'path_parameter_too_long',
            'A path parameter is longer than any valid id.',
            414,
          )
        : new DomainError('invalid_url', 'The URL could not be parsed.', 400);
  // The same problem answer as every other refusal (the filter is not reached from here).
  const [status, body] = toErrorResponse(refusal, String(request.id));
  void sendProblem(reply, status, body);
}

/** Node's parser errors (before any request exists) as our codes. */
function clientRefusal(code: string | undefined): DomainError {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new DomainError(
      'headers_too_large',
      'The request line and headers are larger than 16 KiB.',
      431,
    );
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new DomainError(
      'request_timeout',
      'The request did not arrive in time; the connection is closed.',
      408,
    );
  }
  return new DomainError('malformed_request', 'The request is not valid HTTP/1.1.', 400);
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refused (headers over 16 KiB,
 * two Content-Lengths, a chunk extension flood, headers never finished) is answered as an
 * RFC 9457 problem with a stable code too, not Fastify's `{"error":"Bad Request"}`, and its
 * connection closed (what follows on it cannot be parsed).
 */
export function clientErrors(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) {
    return;
  }
  if (socket.writable) {
    const requestId = randomUUID();
    const [status, body] = toErrorResponse(clientRefusal(error.code), requestId);
    const json = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${PROBLEM_MEDIA_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(json)}\r\nx-request-id: ${requestId}\r\n` +
        `Connection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy();
}
