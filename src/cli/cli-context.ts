import 'reflect-metadata';

import { type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

import { AppModule } from '../app.module';
import { StderrLogger, stderrLogLevels } from '../common/stderr-logger';
import { type AppConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { InvalidEnvironmentError } from '../config/load-config';

/**
 * The same modules the server runs, without HTTP. The CLI never seeds demo data: an ingest
 * into an empty store should hold exactly what was ingested.
 */
export async function withAppContext<T>(
  run: (ctx: INestApplicationContext) => Promise<T>,
  overrides: Record<string, string> = {},
): Promise<T> {
  let config: AppConfig;
  try {
    // The server's settings (environment over `.env`), quieter, and never seeding.
    config = await ConfigModule.load({
      defaults: { LOG_LEVEL: 'warn' },
      overrides: { ...overrides, SEED_DEMO_DATA: 'false' },
    });
  } catch (error) {
    if (error instanceof InvalidEnvironmentError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const ctx = await NestFactory.createApplicationContext(AppModule.forRoot(config), {
    logger: new StderrLogger({ logLevels: stderrLogLevels(config.server.logLevel) }),
  });
  try {
    return await run(ctx);
  } finally {
    await ctx.close();
  }
}
