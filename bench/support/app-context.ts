import 'reflect-metadata';

import { type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

import { AppModule } from '../../src/app.module';
import { StderrLogger } from '../../src/common/stderr-logger';
import { loadConfig } from '../../src/config/load-config';

/** Benchmarks run on a fresh in-memory store with no demo data and quiet logs. */
export const BENCH_ENV = { DATA_DIR: 'memory://', SEED_DEMO_DATA: 'false', LOG_LEVEL: 'warn' };

export async function benchContext(
  env: Record<string, string> = {},
): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(
    AppModule.forRoot(loadConfig({ ...BENCH_ENV, ...env })),
    // stdout is the bench's JSON: warnings (a boot notice, say) go to stderr.
    { logger: new StderrLogger({ logLevels: ['fatal', 'error', 'warn'] }) },
  );
}
