import 'reflect-metadata';

import { type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

import { AppModule } from '../../src/app.module';
import { loadConfig } from '../../src/config/load-config';

/** Benchmarks run on a fresh in-memory store with no demo data and quiet logs. */
export const BENCH_ENV = { DATA_DIR: 'memory://', SEED_DEMO_DATA: 'false', LOG_LEVEL: 'warn' };

export async function benchContext(
  env: Record<string, string> = {},
): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(
    AppModule.forRoot(loadConfig({ ...BENCH_ENV, ...env })),
    { logger: ['error', 'warn'] },
  );
}
