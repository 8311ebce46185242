import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';

import { RetrievalModule } from '../retrieval/retrieval.module';
import { HealthController } from './health.controller';

@Module({ imports: [TerminusModule, RetrievalModule], controllers: [HealthController] })
export class HealthModule {}
