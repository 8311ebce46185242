import { DomainError } from '@app/common';
import { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';

import { sendProblem, toErrorResponse } from './error-body';

/**
 * The path parameter bound: any valid id (128 characters, `IsUid`) fits, even fully
 * percent-encoded (3 characters each).
 */
export const MAX_PARAM_LENGTH = 3 * 128;

/**
 * Errors Fastify's router raises before any route runs (a parameter past MAX_PARAM_LENGTH, a
 * malformed URL). Its own answers quote the path, which carries contact ids: these never do,
 * and are RFC 9457 problems with a stable code like every other 4xx.
 */
export function frameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const refusal =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new DomainError(
          'path_parameter_too_long',
          'A path parameter is longer than any valid id.',
          414,
        )
      : new DomainError('invalid_url', 'The URL could not be parsed.', 400);
  // The same problem answer as every other refusal (the filter is not reached from here).
  const [status, body] = toErrorResponse(refusal, String(request.id));
  void sendProblem(reply, status, body);
}
