import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';

import { RelationalModule } from '../relational/relational.module';
import { RetrievalModule } from '../retrieval/retrieval.module';
import { ContextController } from './context.controller';
import { ContextService } from './context.service';
import { ContextPromptService } from './context-prompt.service';
import { ContextRetriever } from './context-retriever';
import { ContextWarmup } from './context-warmup.service';
import { EvidenceAssembler } from './evidence/evidence-assembler';
import { ContextExplainer } from './explain/context-explainer';
import { RelevanceController } from './relevance.controller';
import { RelevanceService } from './relevance.service';
import { SlowCallInterceptor } from './slow-call.interceptor';
import { SlowCallLog } from './slow-call-log';
import { CallMemory } from './speculative/call-memory';
import { CallSessions } from './speculative/call-sessions';
import { CallTurns } from './speculative/call-turns';
import { Speculator } from './speculative/speculator';

/** The context bridge endpoints: /context, /context/prompt and /relevance. */
@Module({
  imports: [RetrievalModule, RelationalModule],
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
    ContextRetriever,
    CallSessions,
    CallMemory,
    Speculator,
    CallTurns,
  ],
  exports: [
    ContextService,
    ContextPromptService,
    RelevanceService,
    EvidenceAssembler,
    CallSessions,
    CallTurns,
    ContextRetriever,
  ],
})
export class ContextModule {}
