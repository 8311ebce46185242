import { DomainError } from '@app/common';
import { HttpException, HttpStatus } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';

/**
 * The one error shape every endpoint returns: an RFC 9457 problem (`application/problem+json`)
 * whose `type` is the stable code as a URN, plus the fields clients of 0.x read (`error`,
 * `message`, `request_id`, `details`), kept as extension members.
 */
export interface ErrorBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  error: string;
  message: string;
  request_id: string;
  details?: Record<string, unknown>;
}

/** RFC 9457's media type for error answers. */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json; charset=utf-8';

/** The problem `type` of a stable code: a URN, so it names the code without a web host. */
export const problemType = (code: string) => `urn:context-bridge:problem:${code}`;

/** Seconds a client waits after a 429 or 503 that did not say: short, the load is brief. */
const DEFAULT_RETRY_AFTER_S = 1;

/**
 * Stable machine codes clients may branch on, with their status. Other modules add their
 * own (chat: `query_too_short`, `user_not_found`, `retrieval_failed`; webhooks: signature codes).
 */
export const ERROR_CODES: Record<string, string> = {
  validation_failed: '400: a field is missing or invalid (message lists each one)',
  invalid_json: '400: the body is not valid JSON',
  invalid_body_encoding: '400: the body is not valid UTF-8 (JSON and NDJSON bodies must be)',
  empty_batch: '400: an ingestion body holds no records',
  call_id_required: '400: an interim chunk (is_final: false) without its call_id',
  occurred_at_in_future:
    '400: an occurred_at further ahead of the server clock than HISTORY_MAX_FUTURE_SECONDS; nothing stored',
  too_many_records: '400: more records than INGEST_MAX_RECORDS',
  mcp_batch_too_large: '400: a JSON-RPC batch over 8 messages on /mcp',
  invalid_candidates: '400: /relevance needs exactly one of candidate or candidates',
  text_too_large: '400: /redact text over 64 Ki characters',
  unsupported_filter: '400: /v1/vector_stores search filters other than one location_uid',
  missing_api_key: '401: no `Authorization: Bearer` or `x-api-key` header',
  invalid_api_key: '401: the key matches no configured hash',
  invalid_vapi_secret: '401: X-Vapi-Secret matches none of VAPI_SECRETS',
  missing_token: '401: CHAT_AUTH=jwt and no Bearer token',
  invalid_token: '401: the chat token is forged, malformed or has the wrong issuer/audience',
  token_expired: '401: the chat token has expired',
  token_user_mismatch: '401: userId differs from the token subject',
  chat_auth_required: '403: NODE_ENV=production and CHAT_AUTH unset: POST /chat is closed',
  origin_forbidden:
    '403: a WebSocket upgrade whose Origin is not in CORS_ORIGINS (a page of another site)',
  location_forbidden: '403: the key is bound to other location_uids than the data asked for',
  insufficient_scope:
    "403: the key's scopes do not include the one this route needs (required_scope)",
  not_found: '404: no such route',
  body_timeout: '408: the body did not arrive within HTTP_BODY_TIMEOUT_MS; the connection closes',
  path_parameter_too_long:
    '414: a path parameter longer than any valid id (the id is never echoed)',
  invalid_url: '400: the URL could not be parsed',
  malformed_request:
    "400: Node's HTTP parser refused the request (two Content-Lengths, a bad chunk, …); the connection closes",
  headers_too_large: '431: request line and headers over 16 KiB; the connection closes',
  request_timeout:
    "408: the request's headers within 60 s, or the whole request within 120 s, did not arrive; the connection closes",
  payload_too_large: '413: body over 1 MB (32 MB for /ingest/*)',
  record_too_large: '413: an NDJSON line over 1 MiB (no record is that large)',
  unsupported_media_type: '415: use application/json (or application/x-ndjson for /ingest/*)',
  unsupported_content_encoding:
    '415: a body with a Content-Encoding (gzip, br…); bodies are not decoded, send them uncompressed',
  upgrade_required: '426: GET /calls/{call_id}/stream is a WebSocket; send the upgrade handshake',
  rate_limited: '429: per-key or per-IP rate limit; see Retry-After',
  ingest_busy: '429: INGEST_MAX_INFLIGHT uploads already running; see Retry-After',
  forget_busy: '429: the forgets this replica runs at once are running and queued; see Retry-After',
  mcp_caller_held:
    "429: this caller's last /mcp request was refused (batch over 8, malformed or oversized body, rate limit); its /mcp requests are refused unread for a few seconds; see Retry-After",
  probe_rate_limited:
    '429: over 60 /health/ready probes a second from one address; see Retry-After',
  pipeline_too_deep:
    '429: more than 16 requests sent on one connection before their answers were read (HTTP pipelining); the connection closes',
  too_many_calls: '429: CALLS_MAX_PER_CALLER (per key) or CALLS_MAX live calls already tracked',
  stream_busy: "429: a call stream's final while 2 of its finals are still being answered",
  stream_finals_rate_limited:
    "429: a call stream's finals faster than 1 a second (after 3 at once); a turn ends about once a second at most",
  internal_error: '500: unexpected; quote request_id',
  service_unavailable: '503: shutting down or a dependency is not ready',
  database_unavailable: '503: the database cannot be reached or is not open yet; retry shortly',
  database_timeout: '503: a database statement ran past DATABASE_STATEMENT_TIMEOUT_MS',
  database_conflict:
    '503: a concurrent write held what this one needed and the retries ran out; retry shortly',
  contact_cache_failed: '503: the shared contact cache refused to drop a deleted contact; retry',
  overloaded: '503: RELEVANCE_MAX_INFLIGHT /relevance calls already running; retry shortly',
  relevance_timeout: '503: /relevance scoring passed RELEVANCE_TIMEOUT_MS; its work was stopped',
  embedder_busy: "503: the embedder's live queue for this route is full; retry shortly",
  chat_busy: '503: CHAT_MAX_INFLIGHT chat answers already streaming; retry shortly',
  search_busy: '503: every /search (and MCP search_history) slot is busy; retry shortly',
  search_timeout: '503: the search passed its 2 s deadline; its work was stopped',
  identity_provider_unavailable: '503: the JWKS at CHAT_JWKS_URL could not be fetched',
};

/** The error shape as documented in OpenAPI (`ErrorBody`). */
@ApiSchema({ name: 'ErrorBody' })
export class ErrorBodyDto implements ErrorBody {
  @ApiProperty({
    description: 'RFC 9457 problem type: `urn:context-bridge:problem:<error>`.',
    example: 'urn:context-bridge:problem:missing_api_key',
  })
  type!: string;

  @ApiProperty({ description: 'What the problem type means; fixed per `error` code.' })
  title!: string;

  @ApiProperty({ description: 'The HTTP status, repeated.', example: 401 })
  status!: number;

  @ApiProperty({ description: 'This occurrence, for humans (the same text as `message`).' })
  detail!: string;

  @ApiProperty({
    description: `Stable machine code. Known codes:\n${Object.entries(ERROR_CODES)
      .map(([code, what]) => `- \`${code}\` (${what})`)
      .join('\n')}`,
    example: 'missing_api_key',
  })
  error!: string;

  @ApiProperty({ description: 'For humans; may change between versions.' })
  message!: string;

  @ApiProperty({ description: 'Also in the `x-request-id` response header.' })
  request_id!: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Structured extras, e.g. `retry_after_s`, offending `indexes`.',
  })
  details?: Record<string, unknown>;
}

/** Titles for statuses whose code is not catalogued (RFC 9110 reason phrases). */
const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

const CODES_BY_STATUS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'service_unavailable',
};

const ROUTE_NOT_FOUND = 'No route matches this method and path.';
/** Fastify's 415 (a body type no parser takes) says only "Unsupported Media Type". */
const MEDIA_TYPES_TAKEN =
  'Send the body as application/json (the /ingest/* routes also take application/x-ndjson).';

/** Fastify's own error codes (raised before Nest sees the request) mapped to ours. */
const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
};

/** Validation messages shown; the rest are counted (20,000 unknown keys were a 1.4 MB answer). */
const MAX_VALIDATION_MESSAGES = 20;
/** class-validator's whitelist message: the only one that quotes caller text (a key name). */
const UNKNOWN_PROPERTY = /^((?:\w+\.)*)property ([\s\S]*) should not exist$/;
/** A key name safe to echo: a field-like word, not an e-mail, a phone or a megabyte. */
const ECHOABLE_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** An unknown key's name is echoed only when it looks like a field name, never customer text. */
function withoutCallerText(message: string): string {
  const unknown = UNKNOWN_PROPERTY.exec(message);
  if (!unknown || ECHOABLE_KEY.test(unknown[2])) {
    return message;
  }
  return `${unknown[1]}a property with an unexpected name (not shown) should not exist`;
}

function validationMessage(response: unknown): string | undefined {
  const message = (response as { message?: unknown }).message;
  if (!Array.isArray(message)) {
    return undefined;
  }
  const shown = [...new Set(message.map((m) => withoutCallerText(String(m))))];
  const more = shown.length - MAX_VALIDATION_MESSAGES;
  return more > 0
    ? `${shown.slice(0, MAX_VALIDATION_MESSAGES).join('; ')}; and ${more} more`
    : shown.join('; ');
}

type LegacyBody = Pick<ErrorBody, 'error' | 'message' | 'request_id' | 'details'>;

/** The problem members for a body: `title` from the code's catalogue line, else the status. */
function asProblem(status: number, body: LegacyBody): ErrorBody {
  const catalogued = ERROR_CODES[body.error]?.replace(/^\d{3}: /, '');
  return {
    type: problemType(body.error),
    title: catalogued ?? REASONS[status] ?? `HTTP ${status}`,
    status,
    detail: body.message,
    ...body,
  };
}

/**
 * Maps anything thrown to `[status, problem]`. Unknown errors become a generic 500: their
 * message may hold customer text, so it goes to the log (by the caller), never the client.
 */
export function toErrorResponse(error: unknown, requestId: string): [number, ErrorBody] {
  const [status, body] = toLegacyBody(error, requestId);
  return [status, asProblem(status, body)];
}

/**
 * Sends a problem: its media type, and `Retry-After` on 429 and 503 (from
 * `details.retry_after_s` when the error knows, else a short default) unless already set.
 */
export function sendProblem(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  if ((status === 429 || status === 503) && !reply.hasHeader('retry-after')) {
    const seconds = Number(body.details?.retry_after_s);
    const wait =
      Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : DEFAULT_RETRY_AFTER_S;
    void reply.header('retry-after', String(wait));
  }
  return reply.code(status).header('content-type', PROBLEM_MEDIA_TYPE).send(body);
}

function toLegacyBody(error: unknown, requestId: string): [number, LegacyBody] {
  if (error instanceof DomainError) {
    const body: LegacyBody = { error: error.code, message: error.message, request_id: requestId };
    return [error.httpStatus, error.details ? { ...body, details: error.details } : body];
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const response = error.getResponse();
    const validation = status === 400 ? validationMessage(response) : undefined;
    const body: LegacyBody = {
      error: validation ? 'validation_failed' : (CODES_BY_STATUS[status] ?? `http_${status}`),
      // The router's miss ("Cannot GET /contacts/<id>/…") would echo the path, and paths
      // carry contact ids, which are phone numbers or e-mail addresses under Podium.
      message:
        validation ??
        (status === 404 ? ROUTE_NOT_FOUND : status === 415 ? MEDIA_TYPES_TAKEN : error.message),
      request_id: requestId,
    };
    // Health checks answer 503 with per-indicator details that probes and operators read.
    const details = (response as { details?: Record<string, unknown> }).details;
    return [status, details ? { ...body, details } : body];
  }
  const fastify = error as { code?: string; statusCode?: number; message?: string };
  if (fastify?.code && fastify.statusCode && fastify.statusCode < 500) {
    return [
      fastify.statusCode,
      {
        error: FASTIFY_CODES[fastify.code] ?? CODES_BY_STATUS[fastify.statusCode] ?? 'bad_request',
        message: fastify.message ?? 'Bad request',
        request_id: requestId,
      },
    ];
  }
  return [
    HttpStatus.INTERNAL_SERVER_ERROR,
    { error: 'internal_error', message: 'Internal server error', request_id: requestId },
  ];
}
