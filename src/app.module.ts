import { CoalescerModule } from '@app/coalescer';
import { DatabaseModule } from '@app/database';
import { EmbeddingModule } from '@app/embedding';
import { PodiumModule } from '@app/podium';
import { PromptModule } from '@app/prompt';
import { RedactionModule } from '@app/redaction';
import { RerankModule } from '@app/rerank';
import { VectorModule } from '@app/vector';
import { type DynamicModule, Module, ValidationPipe } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';

import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { type AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { ContextModule } from './context/context.module';
import { DemoModule } from './demo/demo.module';
import { HealthModule } from './health/health.module';
import { IngestModule } from './ingest/ingest.module';
import { MetricsModule } from './metrics/metrics.module';
import { RedactModule } from './redact/redact.module';
import { RetrievalModule } from './retrieval/retrieval.module';

/** The composition root: every provider choice is made here, from the validated config. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.server.logLevel,
            // Only method, url and id: headers carry credentials and bodies carry customer text.
            serializers: {
              req: (req: { id: string; method: string; url: string }) => ({
                id: req.id,
                method: req.method,
                url: req.url,
              }),
              res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
            },
            customProps: (req) => ({ request_id: (req as { id?: string }).id }),
            autoLogging: { ignore: (req) => req.url?.startsWith('/health') ?? false },
          },
        }),
        EmbeddingModule.forRoot({
          isGlobal: true,
          provider: config.embedding.provider,
          model: config.embedding.model,
          dimension: config.embedding.dimension,
          workers: config.embedding.workers,
          openaiApiKey: config.embedding.openaiApiKey,
          openaiBaseUrl: config.embedding.openaiBaseUrl,
          teiUrl: config.embedding.teiUrl,
          threshold: config.chat.scoreThreshold,
        }),
        DatabaseModule.forRoot({
          isGlobal: true,
          dataDir: config.storage.dataDir,
          databaseUrl: config.storage.databaseUrl,
        }),
        VectorModule.forRoot({
          isGlobal: true,
          provider: config.storage.vectorProvider,
          qdrantUrl: config.storage.qdrantUrl,
          qdrantApiKey: config.storage.qdrantApiKey,
        }),
        PodiumModule.forRoot({ isGlobal: true, provider: config.podium.provider }),
        RedactionModule.forRoot({
          isGlobal: true,
          entities: config.redaction.entities,
          phoneRegions: config.redaction.phoneRegions,
        }),
        RerankModule.forRoot({
          isGlobal: true,
          provider: config.rerank.provider,
          teiUrl: config.rerank.teiUrl,
          cohereApiKey: config.rerank.cohereApiKey,
          cohereBaseUrl: config.rerank.cohereBaseUrl,
          cohereModel: config.rerank.cohereModel,
        }),
        PromptModule.forRoot({ isGlobal: true }),
        CoalescerModule.forRoot({
          isGlobal: true,
          redisUrl: config.storage.redisUrl,
          tailWords: config.context.coalesceTailWords,
          ttlMs: config.context.coalesceTtlMs,
        }),
        IngestModule,
        DemoModule,
        RetrievalModule,
        MetricsModule,
        ContextModule,
        RedactModule,
        HealthModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        {
          provide: APP_PIPE,
          useValue: new ValidationPipe({
            whitelist: true,
            forbidNonWhitelisted: true,
            transform: true,
          }),
        },
      ],
    };
  }
}
