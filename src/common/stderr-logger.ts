import { ConsoleLogger, type LogLevel } from '@nestjs/common';

import { type AppConfig } from '../config/app-config';

/**
 * For processes whose stdout is their answer (the CLI's and the benches' JSON, which scripts
 * parse): every log line goes to stderr.
 */
export class StderrLogger extends ConsoleLogger {
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

/** Nest's levels for a LOG_LEVEL: `silent` prints nothing. */
export function stderrLogLevels(level: AppConfig['server']['logLevel']): LogLevel[] {
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
