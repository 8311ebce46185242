import 'reflect-metadata';

import { type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

import { AppModule } from '../../src/app.module';
import { loadConfig } from '../../src/config/load-config';
import { createApp } from '../../src/create-app';

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

/** The real HTTP app on a loopback port, for latency benchmarks. */
export async function benchServer(env: Record<string, string> = {}) {
  const app = await createApp(loadConfig({ ...BENCH_ENV, ...env }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.getHttpServer().address() as { port: number };
  return { app, url: `http://127.0.0.1:${port}` };
}
