import { type Socket } from 'node:net';

import { DomainError } from '@app/common';
import { type FastifyInstance } from 'fastify';

/**
 * Requests one connection may have in flight (HTTP/1.1 pipelining: sent before the answers
 * to the earlier ones were read). Browsers and HTTP client libraries send one at a time.
 */
export const MAX_PIPELINED_REQUESTS = 16;

/** The 429 of a connection that sent too many requests ahead of their answers. */
class PipelineTooDeepError extends DomainError {
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

/**
 * Bounds HTTP/1.1 pipelining per connection. Node parses every request a socket has sent and
 * hands each to the app at once, whether or not the client reads the answers: one 800 KB
 * write of 20,000 `GET /health/live` kept the event loop busy for seconds, every other
 * client waiting. Past the cap the request is answered 429 `pipeline_too_deep` with
 * `connection: close` (after the answers queued ahead of it); anything the same connection
 * sends after that refusal is not answered: the socket is destroyed, unread.
 */
export function registerPipelineCap(fastify: FastifyInstance): void {
  const sockets = new WeakMap<Socket, SocketState>();
  fastify.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket as Socket | null | undefined;
    if (!socket) {
      done(); // an injected request (light-my-request) has no connection
      return;
    }
    let state = sockets.get(socket);
    if (!state) {
      state = { inFlight: 0, refused: false };
      sockets.set(socket, state);
    }
    if (state.refused) {
      socket.destroy();
      return; // the socket is gone, and with it this request
    }
    const counted = state;
    counted.inFlight += 1;
    reply.raw.once('close', () => {
      counted.inFlight -= 1;
    });
    if (counted.inFlight > MAX_PIPELINED_REQUESTS) {
      counted.refused = true;
      void reply.header('connection', 'close');
      done(new PipelineTooDeepError());
      return;
    }
    done();
  });
}
