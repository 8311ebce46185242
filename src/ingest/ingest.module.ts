import { Inject, Module, type NestModule } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type FastifyInstance } from 'fastify';

import { API_KEY_CHALLENGE, ApiKeyService } from '../auth/api-key.service';
import { RateLimiter } from '../auth/rate-limiter';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ConversationsModule } from '../conversations/conversations.module';
import { IngestController } from './ingest.controller';
import { IngestService } from './ingest.service';
import { registerIngestHooks } from './ingest-admission';

/** Bulk ingestion: the `/ingest/*` routes, their body limit and admission, and the service. */
@Module({
  imports: [ConversationsModule],
  controllers: [IngestController],
  providers: [IngestService],
  exports: [IngestService],
})
export class IngestModule implements NestModule {
  constructor(
    private readonly http: HttpAdapterHost,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: ApiKeyService,
    private readonly limiter: RateLimiter,
  ) {}

  /**
   * Nest calls `configure` before it registers any route, which the body limit needs (it is
   * set as a route is registered); admission is a Fastify hook because it must run before
   * the body is read, earlier than any guard. Not called without HTTP (the CLI).
   */
  configure(): void {
    registerIngestHooks(this.http.httpAdapter.getInstance<FastifyInstance>(), {
      maxInFlight: this.config.ingest.maxInFlight,
      maxRecords: this.config.ingest.maxRecords,
      reject: (request) => this.keys.rejection(this.keys.identify(request)),
      tenantOf: (request) => {
        const identity = this.keys.identify(request);
        if (identity.kind !== 'key') {
          return '';
        }
        const { locations, keyName } = identity.principal;
        return locations ? `loc:${locations.join(',')}` : `key:${keyName}`;
      },
      countRefused: (request, reply) => this.limiter.countRefused(request, reply),
      challenge: { 'www-authenticate': API_KEY_CHALLENGE },
    });
  }
}
