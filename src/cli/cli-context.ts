import 'reflect-metadata';

import { ConsoleLogger, type INestApplicationContext, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

import { AppModule } from '../app.module';
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
    logger: new StderrLogger({ logLevels: nestLevels(config.server.logLevel) }),
  });
  try {
    return await run(ctx);
  } finally {
    await ctx.close();
  }
}

/** stdout is the command's answer (JSON a script parses): every log line goes to stderr. */
class StderrLogger extends ConsoleLogger {
  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    _stream?: 'stdout' | 'stderr',
    errorStack?: unknown,
  ): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack);
  }
}

/** The CLI's levels from LOG_LEVEL (default warn): `silent` prints nothing. */
function nestLevels(level: AppConfig['server']['logLevel']): LogLevel[] {
  const order: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
  const upTo: Record<typeof level, number> = {
    silent: 0,
    fatal: 1,
    error: 2,
    warn: 3,
    info: 4,
    debug: 5,
    trace: 6,
  };
  return order.slice(0, upTo[level]);
}
