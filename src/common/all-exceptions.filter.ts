import { DomainError } from '@app/common';
import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import { type FastifyReply, type FastifyRequest } from 'fastify';

import { sendProblem, toErrorResponse } from './error-body';

/** One global filter: known errors keep their code, the rest become a 500 with a request id. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger(AllExceptionsFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const [status, body] = toErrorResponse(exception, String(request.id));
    if (status >= 500) {
      this.logServerError(exception, String(request.id), status, body.error);
    }
    if (reply.sent || reply.raw.headersSent) {
      return;
    }
    void sendProblem(reply, status, body);
  }

  private logServerError(exception: unknown, requestId: string, status: number, code: string) {
    // A 503 we chose (overloaded, database_unavailable, a timeout) is the design working, not a
    // bug: a warn line with its code, so a flood cannot bury real errors or page on-call. A
    // known error with a 500 (a configuration error met at request time) is still an error.
    if (exception instanceof DomainError && status === 503) {
      this.logger.warn({ request_id: requestId, status, code }, 'request refused');
      return;
    }
    // Log the class and stack only: messages of unknown errors may carry customer text.
    const err = exception as Error & { code?: unknown };
    // The first stack line repeats the message, which may quote customer data: drop it.
    const frames = err?.stack?.split('\n').slice(1).join('\n');
    this.logger.error(
      { request_id: requestId, err: { type: err?.name, code: err?.code, frames } },
      'unhandled error',
    );
  }
}
