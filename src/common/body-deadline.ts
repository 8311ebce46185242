import { type IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';

import { DomainError } from '@app/common';
import { type FastifyInstance } from 'fastify';

/** The body did not arrive within HTTP_BODY_TIMEOUT_MS of the request's start (408). */
export class BodyTimeoutError extends DomainError {
  constructor(timeoutMs: number) {
    super(
      'body_timeout',
      `The request body did not arrive within ${timeoutMs} ms (HTTP_BODY_TIMEOUT_MS); the connection is closed.`,
      408,
    );
  }
}

/**
 * Gives every request body a deadline. Node's own `requestTimeout` is only checked every 30 s
 * and Fastify's default is none, so without this a caller trickling a body holds whatever
 * was taken before the body is read (the single ingest slot, a socket) for as long as it
 * likes. Past the deadline the body stream fails with 408 `body_timeout`, the response says
 * `connection: close`, and the rest of the body is never read.
 */
export function registerBodyDeadline(fastify: FastifyInstance, timeoutMs: number): void {
  fastify.addHook('preParsing', (request, reply, payload, done) => {
    const { headers } = request;
    if (headers['transfer-encoding'] === undefined && !(Number(headers['content-length']) > 0)) {
      return done(null, payload); // no body to wait for
    }
    // A body sent with its headers is pushed by the parser just after this hook is called: a
    // microtask later it is all buffered, and a whole body has nothing left to trickle (nor
    // needs the guard stream, ~0.05 ms of CPU a request).
    queueMicrotask(() => {
      if (arrived(request.raw, payload)) {
        done(null, payload);
        return;
      }
      const guarded = new PassThrough();
      const timer = setTimeout(() => {
        payload.unpipe(guarded);
        (payload as Readable).pause();
        void reply.header('connection', 'close');
        guarded.destroy(new BodyTimeoutError(timeoutMs));
      }, timeoutMs);
      timer.unref();
      const settle = () => clearTimeout(timer);
      guarded.once('end', settle).once('close', settle);
      reply.raw.once('close', settle);
      payload.once('error', (error) => guarded.destroy(error));
      payload.pipe(guarded);
      done(null, guarded);
    });
  });
}

/**
 * Whether every byte of a `content-length` body is in `payload`'s buffer: the raw request
 * itself (no earlier hook replaced it), not chunked, and holding the declared length.
 */
function arrived(raw: IncomingMessage, payload: unknown): boolean {
  const { headers } = raw;
  return (
    payload === raw &&
    headers['transfer-encoding'] === undefined &&
    raw.readableLength >= Number(headers['content-length'])
  );
}
