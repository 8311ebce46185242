import { Logger, ServiceUnavailableException } from '@nestjs/common';
import { type FastifyReply } from 'fastify';

import { type ClientBundle, type ClientSpec, loadClient } from './client-bundle';

/**
 * Holds one built browser client in memory. It is read (or, on a checkout that has not run
 * `npm run build`, built) once when the HTTP server starts, so serving it is a buffer write.
 */
export class ClientAssets {
  private readonly logger: Logger;
  private bundle: (ClientBundle & { etag: string }) | undefined;

  constructor(
    private readonly spec: ClientSpec,
    /** What the client is, for the log and the 503 (e.g. "chat widget"). */
    private readonly label: string,
    /** The 503's stable code when the bundle is missing. */
    private readonly unavailableCode: string,
  ) {
    this.logger = new Logger(`${label} assets`);
  }

  async load(): Promise<void> {
    try {
      const bundle = await loadClient(this.spec);
      // A strong validator from the content hash: a new build is a new ETag.
      this.bundle = { ...bundle, etag: `"${bundle.integrity.slice(7, 39)}"` };
    } catch (error) {
      // The API still serves; only this client is missing (e.g. an image built without it).
      this.logger.error(`The ${this.label} bundle is unavailable: ${String(error)}`);
    }
  }

  get(): ClientBundle & { etag: string } {
    if (!this.bundle) {
      throw new ServiceUnavailableException({
        error: this.unavailableCode,
        message: `The ${this.label} is not built on this server (run \`npm run build\`).`,
      });
    }
    return this.bundle;
  }
}

/** Browsers may reuse a script for an hour, then revalidate it by ETag (a 304 is tiny). */
const SCRIPT_CACHE = 'public, max-age=3600, must-revalidate';

/** Sends a built client with its ETag (304 when the browser has it); `headers` add to them. */
export function sendScript(
  reply: FastifyReply,
  bundle: ClientBundle & { etag: string },
  ifNoneMatch: string | undefined,
  headers: Record<string, string> = {},
): FastifyReply {
  void reply
    .headers(headers)
    .header('cache-control', SCRIPT_CACHE)
    .header('etag', bundle.etag)
    .header('x-content-type-options', 'nosniff');
  if (ifNoneMatch?.split(/\s*,\s*/).includes(bundle.etag)) {
    return reply.code(304).send();
  }
  return reply.type('text/javascript; charset=utf-8').send(bundle.code);
}

/** A static page under its Content-Security-Policy, revalidated on every load. */
export function sendPage(
  reply: FastifyReply,
  html: string,
  csp: string,
  headers: Record<string, string> = {},
): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('content-security-policy', csp)
    .header('cache-control', 'no-cache')
    .header('x-content-type-options', 'nosniff')
    .headers(headers)
    .send(html);
}

/** A page's stylesheet: code, not data, so browsers may keep it for an hour. */
export function sendStylesheet(
  reply: FastifyReply,
  css: string,
  headers: Record<string, string> = {},
): FastifyReply {
  return reply
    .type('text/css; charset=utf-8')
    .header('cache-control', 'public, max-age=3600')
    .headers(headers)
    .send(css);
}
