import { Module } from '@nestjs/common';

import { IngestModule } from '../ingest/ingest.module';
import { RetrievalModule } from '../retrieval/retrieval.module';
import { DemoSeeder } from './demo-seeder.service';

/** The demo data set, seeded through ingest as a step of the store's bring-up. */
@Module({ imports: [IngestModule, RetrievalModule], providers: [DemoSeeder] })
export class DemoModule {}
