import { DomainError } from '@app/common';
import { HttpException, HttpStatus } from '@nestjs/common';

/** The one error shape every endpoint returns. */
export interface ErrorBody {
  error: string;
  message: string;
  request_id: string;
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
