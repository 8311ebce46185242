import { type Socket } from 'node:net';

import { DomainError } from '@app/common';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Requests one connection may have in flight (HTTP/1.1 pipelining: sent before the answers
 * to the earlier ones were read). Browsers and HTTP client libraries send one at a time.
 */
export const MAX_PIPELINED_REQUESTS = 16;

/** The 429 of a connection that sent too many requests ahead of their answers. */
export class PipelineTooDeepError extends DomainError {
  constructor() {
    super(
      'pipeline_too_deep',
      `More than ${MAX_PIPELINED_REQUESTS} requests were sent on this connection before their answers were read; the connection is closed.`,
      429,
    );
  }
}

interface SocketState {
  inFlight: number;
  refused: boolean;
}

/** Requests in flight per connection (a socket gone is forgotten with it). */
const sockets = new WeakMap<Socket, SocketState>();

/**
 * Bounds HTTP/1.1 pipelining per connection. Node parses every request a socket has sent and
 * hands each to the app at once, whether or not the client reads the answers: one 800 KB
 * write of 20,000 `GET /health/live` kept the event loop busy for seconds, every other
 * client waiting. Past the cap the request is answered 429 `pipeline_too_deep` with
 * `connection: close` (after the answers queued ahead of it); anything the same connection
 * sends after that refusal is not answered: the socket is destroyed, unread.
 */
export function registerPipelineCap(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const admitted = admitPipelined(request, reply);
    if (admitted === 'refused') {
      done(new PipelineTooDeepError());
    } else if (admitted === 'counted') {
      done();
    } // 'gone': the socket is destroyed, and with it this request
  });
}

/**
 * Counts a request against its connection's cap: `counted` (until its answer closes),
 * `refused` (the first past the cap: answer it {@link PipelineTooDeepError}, the connection
 * closing) or `gone` (its connection was refused before: destroyed, never answered). The
 * router's own refusals (a malformed URL, an over-long parameter) run no hook and call this
 * from `frameworkErrors`: 20,000 pipelined `GET /%ZZ` were otherwise all answered.
 */
export function admitPipelined(
  request: FastifyRequest,
  reply: FastifyReply,
): 'counted' | 'refused' | 'gone' {
  const socket = request.raw.socket as Socket | null | undefined;
  if (!socket) {
    return 'counted'; // an injected request (light-my-request) has no connection
  }
  let state = sockets.get(socket);
  if (!state) {
    state = { inFlight: 0, refused: false };
    sockets.set(socket, state);
  }
  if (state.refused) {
    socket.destroy();
    return 'gone';
  }
  const counted = state;
  counted.inFlight += 1;
  reply.raw.once('close', () => {
    counted.inFlight -= 1;
  });
  if (counted.inFlight > MAX_PIPELINED_REQUESTS) {
    counted.refused = true;
    void reply.header('connection', 'close');
    return 'refused';
  }
  return 'counted';
}
