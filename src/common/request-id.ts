import { randomUUID } from 'node:crypto';
import { type IncomingMessage } from 'node:http';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Request ids: honour a caller's `x-request-id` (so traces join up across services) when it
 * is safe to echo, otherwise mint one. Stored on the raw request too, where pino-http reads it.
 */
export function genRequestId(req: IncomingMessage): string {
  const header = req.headers['x-request-id'];
  const id = typeof header === 'string' && SAFE_ID.test(header) ? header : randomUUID();
  (req as IncomingMessage & { id?: string }).id = id;
  return id;
}
