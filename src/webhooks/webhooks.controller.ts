import { DependencyError, DomainError, InvalidInputError } from '@app/common';
import { Controller, Headers, HttpCode, Inject, Logger, Post, RawBody, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';

import { Public } from '../auth/public.decorator';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { WebhookInbox } from '../relational/webhook-inbox';
import { isHandledEventType, parseDelivery } from './podium-events';
import {
  PODIUM_SIGNATURE_HEADER,
  PODIUM_TIMESTAMP_HEADER,
  type SignatureFailure,
  verifyPodiumSignature,
} from './podium-signature';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookProcessor } from './webhook-processor';
import { WebhookWorker } from './webhook-worker';

/** A delivery whose signature does not prove it came from Podium (401, nothing stored). */
export class WebhookSignatureError extends DomainError {
  constructor(code: SignatureFailure, message: string) {
    super(code, message, 401);
  }
}

/** The acknowledgement Podium gets; ids only, never payload content. */
export interface WebhookAck {
  received: true;
  event_id?: string;
  duplicate?: boolean;
  ignored?: boolean;
}

/**
 * `POST /webhooks/podium`: verify, persist, acknowledge; the work happens in the
 * background worker. The answer costs one HMAC and one INSERT (and, for a contact event, a
 * cache invalidation after it, so no replica serves the old live fields once Podium has our
 * acknowledgement; with the cache down the event is still stored and acknowledged), well
 * inside Podium's 5 s.
 */
// No API key: Podium authenticates each delivery with its HMAC signature instead.
@Public()
@ApiTags('webhooks')
@Controller('webhooks')
export class WebhooksController {
  private readonly logger = new Logger(WebhooksController.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly inbox: WebhookInbox,
    private readonly worker: WebhookWorker,
    private readonly metrics: WebhookMetrics,
    private readonly processor: WebhookProcessor,
  ) {}

  @Post('podium')
  @HttpCode(200)
  // The JSON parser keeps the exact body bytes for this route only (see configureApp).
  @RouteConfig({ rawBody: true })
  async podium(
    @RawBody() rawBody: Buffer | undefined,
    @Headers(PODIUM_TIMESTAMP_HEADER) timestamp: string | undefined,
    @Headers(PODIUM_SIGNATURE_HEADER) signature: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WebhookAck> {
    const secret = this.config.webhooks.secret;
    if (!secret) {
      this.metrics.deliveries.inc({ outcome: 'not_configured' });
      // Never accept unsigned events: without a secret nothing could be verified.
      throw new DependencyError(
        'webhooks_not_configured',
        'PODIUM_WEBHOOK_SECRET is not set, so webhook deliveries cannot be verified.',
      );
    }
    if (!rawBody) {
      this.metrics.deliveries.inc({ outcome: 'invalid' });
      throw new InvalidInputError('invalid_webhook_payload', 'Expected an application/json body.');
    }
    const check = verifyPodiumSignature(
      { secret, rawBody, timestamp, signature },
      Date.now(),
      this.config.webhooks.toleranceMs,
    );
    if (!check.ok) {
      this.metrics.deliveries.inc({ outcome: 'unauthorized' });
      throw new WebhookSignatureError(check.code, check.message);
    }
    let delivery;
    try {
      delivery = parseDelivery(rawBody);
    } catch (error) {
      this.metrics.deliveries.inc({ outcome: 'invalid' });
      throw error;
    }
    if (!isHandledEventType(delivery.type)) {
      // Acknowledged so Podium stops retrying; a subscription we do not act on.
      this.metrics.deliveries.inc({ outcome: 'ignored' });
      return { received: true, ignored: true };
    }
    try {
      this.processor.refuseOnArrival(delivery.type, delivery.envelope);
    } catch (error) {
      this.metrics.deliveries.inc({ outcome: 'invalid' });
      throw error;
    }
    // A database that is not open yet or unreachable refuses the insert with 503
    // `database_unavailable`, like every other route: not stored, so not acknowledged.
    const inserted = await this.inbox.insert(delivery.eventId, delivery.type, delivery.envelope);
    // Stored first: a delete never depends on the cache being up. The invalidation is best
    // effort here; the worker invalidates again when it applies the event (and retries).
    await this.processor
      .invalidateOnArrival(delivery.type, delivery.envelope)
      .catch((error: unknown) =>
        this.logger.warn(`webhook: cache invalidation deferred (${(error as Error).name})`),
      );
    this.metrics.deliveries.inc({ outcome: inserted ? 'accepted' : 'duplicate' });
    if (!inserted) {
      return { received: true, event_id: delivery.eventId, duplicate: true };
    }
    this.worker.kick();
    void reply.status(202);
    return { received: true, event_id: delivery.eventId, duplicate: false };
  }
}
