import { Module } from '@nestjs/common';

import { IngestModule } from '../ingest/ingest.module';
import { DemoSeeder } from './demo-seeder.service';

@Module({ imports: [IngestModule], providers: [DemoSeeder], exports: [DemoSeeder] })
export class DemoModule {}
