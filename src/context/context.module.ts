import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';

import { RetrievalModule } from '../retrieval/retrieval.module';
import { ContextController } from './context.controller';
import { ContextService } from './context.service';
import { ContextPromptService } from './context-prompt.service';
import { ContextWarmup } from './context-warmup.service';
import { EvidenceAssembler } from './evidence/evidence-assembler';
import { ContextExplainer } from './explain/context-explainer';
import { RelevanceController } from './relevance.controller';
import { RelevanceService } from './relevance.service';
import { SlowCallInterceptor } from './slow-call.interceptor';
import { SlowCallLog } from './slow-call-log';

/** The context bridge endpoints: /context, /context/prompt and /relevance. */
@Module({
  imports: [RetrievalModule],
  controllers: [ContextController, RelevanceController],
  providers: [
    ContextService,
    ContextPromptService,
    RelevanceService,
    ContextWarmup,
    EvidenceAssembler,
    ContextExplainer,
    SlowCallLog,
    { provide: APP_INTERCEPTOR, useClass: SlowCallInterceptor },
  ],
  exports: [ContextService, ContextPromptService, RelevanceService, EvidenceAssembler],
})
export class ContextModule {}
