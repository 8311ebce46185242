import { Module } from '@nestjs/common';

import { IngestModule } from '../ingest/ingest.module';
import { RetrievalModule } from '../retrieval/retrieval.module';
import { DemoSeeder } from './demo-seeder.service';
import { LocalCrmGuard } from './local-crm-guard.service';

/** The demo data set, seeded through ingest as a step of the store's bring-up; the guard that keeps it out of production's local CRM. */
@Module({ imports: [IngestModule, RetrievalModule], providers: [DemoSeeder, LocalCrmGuard] })
export class DemoModule {}
