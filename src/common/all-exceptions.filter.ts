import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import { type FastifyReply, type FastifyRequest } from 'fastify';

import { toErrorResponse } from './error-body';

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
      // Log the class and stack only: messages of unknown errors may carry customer text.
      const err = exception as Error & { code?: unknown };
      // The first stack line repeats the message, which may quote customer data: drop it.
      const frames = err?.stack?.split('\n').slice(1).join('\n');
      this.logger.error(
        { request_id: request.id, err: { type: err?.name, code: err?.code, frames } },
        'unhandled error',
      );
    }
    if (reply.sent || reply.raw.headersSent) {
      return;
    }
    void reply.status(status).send(body);
  }
}
