import { type FastifyReply } from 'fastify';

/**
 * Aborts when the caller hangs up before its response finished. The response's 'close'
 * (not the request's, which fires once the body is read) tells a finished reply from a
 * dropped connection; a caller that left while guards ran is already gone.
 */
export function clientGone(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) {
      gone.abort();
    }
  };
  reply.raw.once('close', onClose);
  if (reply.raw.destroyed) {
    gone.abort();
  }
  return gone.signal;
}
