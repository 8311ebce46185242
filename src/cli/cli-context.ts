import 'reflect-metadata';

import { type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

import { AppModule } from '../app.module';
import { StderrLogger, stderrLogLevels } from '../common/stderr-logger';
import { type AppConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { InvalidEnvironmentError } from '../config/load-config';

/**
 * The same modules the server runs, without HTTP and without the server's background work:
 * with `role: 'cli'` the webhook worker, the purge, retention and maintenance schedulers and
 * the key-file follower stay off (a one-off command beside production must not drain its
 * inbox), and Podium's token is never refreshed (that would rotate it from under the
 * server; `--url` asks the server for live fields instead). Never seeds demo data: an
 * ingest into an empty store should hold exactly what was ingested.
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
  const ctx = await NestFactory.createApplicationContext(AppModule.forRoot(cliConfig(config)), {
    logger: new StderrLogger({ logLevels: stderrLogLevels(config.server.logLevel) }),
  });
  try {
    return await run(ctx);
  } finally {
    await ctx.close();
  }
}

/** The loaded config as a CLI process runs it (see {@link withAppContext}). */
export function cliConfig(config: AppConfig): AppConfig {
  if (config.podium.provider === 'api') {
    process.stderr.write(
      'note: the CLI never refreshes the Podium token (the server holds it), so bundles here ' +
        'have no live fields; add --url to ask the running server\n',
    );
  }
  return { ...config, role: 'cli', podium: { ...config.podium, tokenRefresh: false } };
}
