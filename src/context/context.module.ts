import { Module } from '@nestjs/common';

import { RetrievalModule } from '../retrieval/retrieval.module';
import { ContextController } from './context.controller';
import { ContextWarmup } from './context-warmup.service';
import { ContextService } from './context.service';
import { RelevanceController } from './relevance.controller';

/** The context bridge endpoints: /context, /context/prompt and /relevance. */
@Module({
  imports: [RetrievalModule],
  controllers: [ContextController, RelevanceController],
  providers: [ContextService, ContextWarmup],
  exports: [ContextService],
})
export class ContextModule {}
