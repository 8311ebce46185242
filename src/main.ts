import 'reflect-metadata';
// First: the traced libraries must be patched before anything loads them (tracing/tracing.ts).
import './tracing/preload';

import { Logger } from '@nestjs/common';

import { limitHeapGrowth } from './common/heap-growth';
import { ConfigModule } from './config/config.module';
import { InvalidEnvironmentError } from './config/load-config';
import { createApp } from './create-app';
import { startTracing } from './tracing/tracing';

async function main(): Promise<void> {
  let config;
  try {
    // The environment, over `.env` in the working directory (see ConfigModule.load).
    config = await ConfigModule.load();
  } catch (error) {
    if (error instanceof InvalidEnvironmentError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  limitHeapGrowth(config.server.heapGrowingPercent);
  startTracing(config.telemetry);
  const app = await createApp(config);
  if (config.security.apiKeys.length === 0) {
    // Refused at boot when NODE_ENV=production; elsewhere, say it once and loudly.
    new Logger('Auth').warn(
      'No API keys configured (API_KEYS / API_KEYS_FILE): every endpoint is open to anyone who ' +
        'can reach this port. Create one with `npx context-bridge keys new NAME`.',
    );
  }
  await app.listen({ port: config.server.port, host: '0.0.0.0' });
}

main().catch((error: unknown) => {
  process.stderr.write(`fatal: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
