import { Module } from '@nestjs/common';

import { RetrievalModule } from '../retrieval/retrieval.module';
import { ContextController } from './context.controller';
import { ContextService } from './context.service';
import { ContextPromptService } from './context-prompt.service';
import { ContextWarmup } from './context-warmup.service';
import { EvidenceAssembler } from './evidence/evidence-assembler';
import { ContextExplainer } from './explain/context-explainer';
import { RelevanceController } from './relevance.controller';
import { RelevanceService } from './relevance.service';

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
  ],
  exports: [ContextService, ContextPromptService, RelevanceService, EvidenceAssembler],
})
export class ContextModule {}
