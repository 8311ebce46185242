import { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * The path parameter bound: any valid id (128 characters, `IsUid`) fits, even fully
 * percent-encoded (3 characters each).
 */
export const MAX_PARAM_LENGTH = 3 * 128;

/**
 * Errors Fastify's router raises before any route runs (a parameter past MAX_PARAM_LENGTH, a
 * malformed URL). Its own answers quote the path, which carries contact ids: these never do,
 * and carry a stable `error` code like every other 4xx.
 */
export function frameworkErrors(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  void reply.code(tooLong ? 414 : 400).send({
    error: tooLong ? 'path_parameter_too_long' : 'invalid_url',
    message: tooLong
      ? 'A path parameter is longer than any valid id.'
      : 'The URL could not be parsed.',
  });
}
