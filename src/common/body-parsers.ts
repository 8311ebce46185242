import { Cooperative, DomainError, InvalidInputError } from '@app/common';
import { type RawBodyRequest } from '@nestjs/common';
import { type FastifyInstance, type FastifyRequest } from 'fastify';

import { COOPERATIVE_JSON_MIN_CHARS, parseJsonCooperatively } from './cooperative-json';

/** The route config flags the body parsers read. */
export interface BodyRouteConfig {
  /** The route verifies a signature over the exact bytes (read with Nest's `@RawBody()`). */
  rawBody?: boolean;
  /** The route takes `application/x-ndjson` as well as JSON. */
  ndjson?: boolean;
}

const routeConfig = (request: FastifyRequest) =>
  (request.routeOptions.config ?? {}) as BodyRouteConfig;

/** Bytes decoded in one call: well under a millisecond; larger bodies yield between slices. */
const DECODE_SLICE_BYTES = 256 * 1024;

const notUtf8 = () =>
  new InvalidInputError(
    'invalid_body_encoding',
    'The body is not valid UTF-8; JSON and NDJSON bodies must be UTF-8 (RFC 8259).',
  );

/**
 * RFC 8259: JSON exchanged between systems is UTF-8. Decoded strictly (`fatal`): a byte
 * sequence that is not UTF-8 is refused instead of becoming U+FFFD, so a body is never stored
 * or searched as something other than what the client sent. A large body (an ingest upload,
 * up to 32 MB) decodes in slices between live requests, as it is parsed.
 */
async function decodeUtf8(body: Buffer): Promise<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const cooperative = new Cooperative();
  let text = '';
  try {
    for (let at = 0; at < body.length; at += DECODE_SLICE_BYTES) {
      await cooperative.turn();
      text += decoder.decode(body.subarray(at, at + DECODE_SLICE_BYTES), { stream: true });
    }
    return text + decoder.decode();
  } catch {
    throw notUtf8();
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
  const invalid = (error: Error) =>
    new InvalidInputError('invalid_json', `Body is not valid JSON: ${error.message}`);
  /** One JSON text through Fastify's parser, thrown as our error. */
  const parseOne = (request: FastifyRequest, text: string) => {
    let parsed: { error: Error | null; value?: unknown } = { error: null };
    void parseJson(request, text, (error, value) => (parsed = { error, value }));
    if (parsed.error) {
      throw parsed.error;
    }
    return parsed.value;
  };
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer' },
    async (request: FastifyRequest, bytes: Buffer) => {
      // A route that verifies a signature over the exact body (the Podium webhook) opts in
      // with @RouteConfig({ rawBody: true }) and reads it with Nest's @RawBody().
      if (routeConfig(request).rawBody) {
        (request as RawBodyRequest<FastifyRequest>).rawBody = bytes;
      }
      const text = await decodeUtf8(bytes);
      try {
        // Only /ingest/* takes bodies this large: parsed in slices, between live requests.
        return text.length > COOPERATIVE_JSON_MIN_CHARS
          ? await parseJsonCooperatively(text, (piece) => parseOne(request, piece))
          : parseOne(request, text);
      } catch (error) {
        throw invalid(error as Error);
      }
    },
  );
  fastify.addContentTypeParser(
    'application/x-ndjson',
    // No bodyLimit here: a parser-level limit would apply to every route; the ingest module
    // raises it for /ingest/* only.
    { parseAs: 'buffer' },
    async (request: FastifyRequest, body: Buffer) => {
      if (!routeConfig(request).ndjson) {
        throw new UnsupportedMediaTypeError('This route takes application/json bodies only.');
      }
      return decodeUtf8(body);
    },
  );
}
