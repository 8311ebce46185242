import { type IncomingMessage } from 'node:http';

import { BackgroundPacer, backgroundPacer, DomainError } from '@app/common';
import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  Optional,
} from '@nestjs/common';
import { type FastifyRequest } from 'fastify';
import { defer, finalize, lastValueFrom, type Observable } from 'rxjs';

/**
 * One admitted upload's place in the INGEST_MAX_INFLIGHT count. It is freed once, by
 * whichever comes last that matters: the response closing before the work started (the
 * request was refused or never got to the handler), or the work ending once it has started.
 */
export class IngestSlot {
  private state: 'admitted' | 'working' | 'freed' = 'admitted';

  constructor(private readonly free: () => void) {}

  /** The response closed. Frees the slot unless the work is running: it outlives its caller. */
  closed(): void {
    if (this.state === 'admitted') {
      this.release();
    }
  }

  /** The work starts; `false` when the slot was already freed (the caller left first). */
  claim(): boolean {
    if (this.state !== 'admitted') {
      return false;
    }
    this.state = 'working';
    return true;
  }

  /** The work ended, however it ended. */
  release(): void {
    if (this.state !== 'freed') {
      this.state = 'freed';
      this.free();
    }
  }
}

/** Slots by raw request: the admission hook stores them, the interceptor claims them. */
export const slots = new WeakMap<IncomingMessage, IngestSlot>();

/** The caller hung up after admission and before the work began: nothing was started. */
export class ClientClosedError extends DomainError {
  constructor() {
    super(
      'client_closed_request',
      'The client closed the connection before the ingestion began; nothing was stored.',
      499,
    );
  }
}

/**
 * Holds the request's ingest slot (taken by the admission hook) until the handler's work
 * settles. Without it the slot would free when the client disconnects while the ingestion
 * carries on, and a client that uploads and hangs up could run any number of them. While
 * `/context` calls are present, each ingestion also waits its pace in the slot
 * ({@link BackgroundPacer}): a caller uploading one batch after another is slowed, not refused.
 */
@Injectable()
export class IngestSlotInterceptor implements NestInterceptor {
  /** `pacer`: the pace ingestions keep (by default the one forgets share). */
  constructor(@Optional() private readonly pacer: BackgroundPacer = backgroundPacer) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const slot = slots.get(request.raw);
    if (!slot) {
      // Admission not registered (no HTTP adapter hook): nothing to hold.
      return next.handle();
    }
    if (!slot.claim()) {
      // The slot is gone with the caller; starting now would be work outside the bound.
      throw new ClientClosedError();
    }
    return defer(() => this.pacer.run(() => lastValueFrom(next.handle()))).pipe(
      finalize(() => slot.release()),
    );
  }
}
