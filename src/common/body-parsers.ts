import { DomainError, InvalidInputError } from '@app/common';
import { type RawBodyRequest } from '@nestjs/common';
import { type FastifyInstance, type FastifyRequest } from 'fastify';

import { COOPERATIVE_JSON_MIN_CHARS, parseJsonCooperatively } from './cooperative-json';

/**
 * Strict: a byte sequence that is not UTF-8 throws instead of becoming U+FFFD, so a body is
 * never stored or searched as something other than what the client sent.
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The route config flag of routes that also take NDJSON bodies (`/ingest/*`). */
export interface BodyRouteConfig {
  /** The route verifies a signature over the exact bytes (read with Nest's `@RawBody()`). */
  rawBody?: boolean;
  /** The route takes `application/x-ndjson` as well as JSON. */
  ndjson?: boolean;
}

const routeConfig = (request: FastifyRequest) =>
  (request.routeOptions.config ?? {}) as BodyRouteConfig;

/** RFC 8259: JSON exchanged between systems is UTF-8. Decoded here, once, strictly. */
function decodeUtf8(body: Buffer): string {
  try {
    return UTF8.decode(body);
  } catch {
    throw new InvalidInputError(
      'invalid_body_encoding',
      'The body is not valid UTF-8; JSON and NDJSON bodies must be UTF-8 (RFC 8259).',
    );
  }
}

/** The 415 of a body whose media type the route does not take. */
class UnsupportedMediaTypeError extends DomainError {
  constructor(message: string) {
    super('unsupported_media_type', message, 415);
  }
}

/** True when the request carries a body (a declared length above 0, or chunked). */
const hasBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined ||
  (request.headers['content-length'] ?? '0') !== '0';

/**
 * The request body parsers of every route: JSON (every body route), NDJSON (the routes that
 * opt in with `ndjson`), and nothing else. Fastify's own `text/plain` parser goes, so a body
 * of any other type is a 415 rather than a string that fails validation as a 400. Bodies are
 * read as bytes and decoded strictly (400 `invalid_body_encoding`). A content coding (gzip,
 * br…) is refused with 415 `unsupported_content_encoding` before the body is read: none is
 * decoded, and without this a compressed body reached the parser as mangled text.
 */
export function registerBodyParsers(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const coding = request.headers['content-encoding']?.trim().toLowerCase();
    if (coding && coding !== 'identity' && hasBody(request)) {
      // RFC 9110 §12.5.3: a 415 for a content coding says which codings are accepted.
      void reply.header('accept-encoding', 'identity').header('connection', 'close');
      done(
        new DomainError(
          'unsupported_content_encoding',
          'Request bodies are not decoded: send them without a Content-Encoding (or identity).',
          415,
        ),
      );
      return;
    }
    done();
  });

  // Fastify's JSON parser (with its prototype-poisoning guard), but a parse failure becomes
  // our stable `invalid_json` code instead of a generic 400.
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser(['application/json', 'text/plain']);
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    // A route that verifies a signature over the exact body (the Podium webhook) opts in
    // with @RouteConfig({ rawBody: true }) and reads it with Nest's @RawBody().
    if (routeConfig(request).rawBody) {
      (request as RawBodyRequest<FastifyRequest>).rawBody = bytes;
    }
    let text: string;
    try {
      text = decodeUtf8(bytes);
    } catch (error) {
      done(error as Error);
      return;
    }
    const invalid = (error: Error) =>
      new InvalidInputError('invalid_json', `Body is not valid JSON: ${error.message}`);
    if (text.length > COOPERATIVE_JSON_MIN_CHARS) {
      // Only /ingest/* takes bodies this large: parsed in slices, between live requests.
      const parseOne = (piece: string) => {
        let parsed: { error: Error | null; value?: unknown } = { error: null };
        void parseJson(request, piece, (error, value) => (parsed = { error, value }));
        if (parsed.error) {
          throw parsed.error;
        }
        return parsed.value;
      };
      parseJsonCooperatively(text, parseOne).then(
        (value) => done(null, value),
        (error: unknown) => done(invalid(error as Error)),
      );
      return;
    }
    void parseJson(request, text, (error, value) =>
      error ? done(invalid(error)) : done(null, value),
    );
  });
  fastify.addContentTypeParser(
    'application/x-ndjson',
    // No bodyLimit here: a parser-level limit would apply to every route; the ingest module
    // raises it for /ingest/* only.
    { parseAs: 'buffer' },
    (request, body, done) => {
      if (!routeConfig(request).ndjson) {
        done(new UnsupportedMediaTypeError('This route takes application/json bodies only.'));
        return;
      }
      try {
        done(null, decodeUtf8(body as Buffer));
      } catch (error) {
        done(error as Error);
      }
    },
  );
}
