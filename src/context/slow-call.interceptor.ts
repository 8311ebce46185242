import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { type FastifyRequest } from 'fastify';
import { map, type Observable } from 'rxjs';

import { ContextController } from './context.controller';
import { type ContextBundle } from './context.dto';
import { SlowCallLog } from './slow-call-log';

/**
 * Hands each `POST /context` answer to the {@link SlowCallLog}; every other route passes
 * through untouched. An interceptor, so the controller and the pipeline stay as they are.
 */
@Injectable()
export class SlowCallInterceptor implements NestInterceptor {
  constructor(private readonly log: SlowCallLog) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (
      !this.log.enabled ||
      context.getClass() !== ContextController ||
      context.getHandler() !== ContextController.prototype.fetch
    ) {
      return next.handle();
    }
    const body = context.switchToHttp().getRequest<FastifyRequest>().body as
      { contact_uid?: unknown } | undefined;
    const contact = typeof body?.contact_uid === 'string' ? body.contact_uid : undefined;
    return next.handle().pipe(map((bundle: ContextBundle) => this.log.observe(bundle, contact)));
  }
}
