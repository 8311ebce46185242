import { CoalescerModule } from '@app/coalescer';
import { CurriculumModule } from '@app/curriculum';
import { DatabaseModule } from '@app/database';
import { EmbeddingModule } from '@app/embedding';
import { LlmModule } from '@app/llm';
import { PodiumModule } from '@app/podium';
import { PromptModule } from '@app/prompt';
import { RedactionModule } from '@app/redaction';
import { RedisModule } from '@app/redis';
import { RerankModule } from '@app/rerank';
import { VectorModule } from '@app/vector';
import { type DynamicModule, Module, ValidationPipe } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';

import { AdaptersModule } from './adapters/adapters.module';
import { AuthModule } from './auth/auth.module';
import { CallsModule } from './calls/calls.module';
import { ChatModule } from './chat/chat.module';
import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { type AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { ContextModule } from './context/context.module';
import { DemoModule } from './demo/demo.module';
import { DEMO_CURRICULUM } from './demo/demo-curriculum';
import { HealthModule } from './health/health.module';
import { IngestModule } from './ingest/ingest.module';
import { InspectorModule } from './inspector/inspector.module';
import { MetricsModule } from './metrics/metrics.module';
import { RedactModule } from './redact/redact.module';
import { RetrievalModule } from './retrieval/retrieval.module';
import { loggerOptions } from './tracing/logger-options';
import { TracingModule } from './tracing/tracing.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { WidgetModule } from './widget/widget.module';

/** The composition root: every provider choice is made here, from the validated config. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        AuthModule,
        LoggerModule.forRoot(loggerOptions(config)),
        EmbeddingModule.forRoot({ isGlobal: true, ...config.embedding }),
        DatabaseModule.forRoot({ isGlobal: true, ...config.storage.database }),
        VectorModule.forRoot({ isGlobal: true, ...config.storage.vector }),
        // One client per process, shared by the coalescer, the contact cache and rate limits.
        RedisModule.forRoot({ isGlobal: true, url: config.storage.redisUrl }),
        PodiumModule.forRoot({ isGlobal: true, ...config.podium }),
        RedactionModule.forRoot({ isGlobal: true, ...config.redaction }),
        RerankModule.forRoot({ isGlobal: true, ...config.rerank }),
        PromptModule.forRoot({ isGlobal: true }),
        LlmModule.forRoot({ isGlobal: true, ...config.llm }),
        CurriculumModule.forRoot({
          isGlobal: true,
          localData: DEMO_CURRICULUM,
          ...config.curriculum,
        }),
        CoalescerModule.forRoot({ isGlobal: true, ...config.coalescer }),
        IngestModule,
        DemoModule,
        RetrievalModule,
        MetricsModule,
        ContextModule,
        CallsModule,
        ChatModule,
        RedactModule,
        HealthModule,
        WebhooksModule,
        AdaptersModule,
        WidgetModule,
        InspectorModule,
        TracingModule,
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
