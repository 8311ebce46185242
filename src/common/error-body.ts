import { DomainError } from '@app/common';
import { HttpException, HttpStatus } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** The one error shape every endpoint returns. */
export interface ErrorBody {
  error: string;
  message: string;
  request_id: string;
  details?: Record<string, unknown>;
}

/**
 * Stable machine codes clients may branch on, with their status. Other modules add their
 * own (chat: `query_too_short`, `user_not_found`, `retrieval_failed`; webhooks: signature codes).
 */
export const ERROR_CODES: Record<string, string> = {
  validation_failed: '400: a field is missing or invalid (message lists each one)',
  invalid_json: '400: the body is not valid JSON',
  empty_batch: '400: an ingestion body holds no records',
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
  location_forbidden: '403: the key is bound to other location_uids than the data asked for',
  not_found: '404: no such route',
  body_timeout: '408: the body did not arrive within HTTP_BODY_TIMEOUT_MS; the connection closes',
  payload_too_large: '413: body over 1 MB (32 MB for /ingest/*)',
  record_too_large: '413: an NDJSON line over 1 MiB (no record is that large)',
  unsupported_media_type: '415: use application/json (or application/x-ndjson for /ingest/*)',
  rate_limited: '429: per-key or per-IP rate limit; see Retry-After',
  ingest_busy: '429: INGEST_MAX_INFLIGHT uploads already running; see Retry-After',
  internal_error: '500: unexpected; quote request_id',
  service_unavailable: '503: shutting down or a dependency is not ready',
  database_unavailable: '503: the database cannot be reached or is not open yet; retry shortly',
  database_timeout: '503: a database statement ran past DATABASE_STATEMENT_TIMEOUT_MS',
  contact_cache_failed: '503: the shared contact cache refused to drop a deleted contact; retry',
  overloaded: '503: RELEVANCE_MAX_INFLIGHT /relevance calls already running; retry shortly',
  relevance_timeout: '503: /relevance scoring passed RELEVANCE_TIMEOUT_MS; its work was stopped',
  search_busy: '503: every /search (and MCP search_history) slot is busy; retry shortly',
  search_timeout: '503: the search passed its 2 s deadline; its work was stopped',
  identity_provider_unavailable: '503: the JWKS at CHAT_JWKS_URL could not be fetched',
};

/** The error shape as documented in OpenAPI (`ErrorBody`). */
@ApiSchema({ name: 'ErrorBody' })
export class ErrorBodyDto implements ErrorBody {
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

/** Fastify's own error codes (raised before Nest sees the request) mapped to ours. */
const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
};

function validationMessage(response: unknown): string | undefined {
  const message = (response as { message?: unknown }).message;
  return Array.isArray(message) ? message.join('; ') : undefined;
}

/**
 * Maps anything thrown to `[status, body]`. Unknown errors become a generic 500: their
 * message may hold customer text, so it goes to the log (by the caller), never the client.
 */
export function toErrorResponse(error: unknown, requestId: string): [number, ErrorBody] {
  if (error instanceof DomainError) {
    const body: ErrorBody = { error: error.code, message: error.message, request_id: requestId };
    return [error.httpStatus, error.details ? { ...body, details: error.details } : body];
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const response = error.getResponse();
    const validation = status === 400 ? validationMessage(response) : undefined;
    const body: ErrorBody = {
      error: validation ? 'validation_failed' : (CODES_BY_STATUS[status] ?? `http_${status}`),
      message: validation ?? error.message,
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
