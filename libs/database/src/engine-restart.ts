import { DomainError } from '@app/common';
import { type Logger } from '@nestjs/common';

import { classifyDatabaseError } from './errors';

/** First pause after a failed replacement; it doubles up to {@link MAX_DELAY_MS}. */
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 30_000;

/**
 * Consecutive failed replacements after which the process reports itself not live: an
 * embedded engine that cannot be reopened in-process may well open after a restart.
 */
export const MAX_RESTART_FAILURES = 3;

/** Health as the probes read it (`Database.check`, `Database.liveness`). */
export type EngineHealth = { up: true } | { up: false; reason: string };

/**
 * Replaces a dead embedded engine (a PGlite worker thread that exited): `attempt` opens a
 * new one, and is retried with backoff until it succeeds. Requests meanwhile fail fast
 * with `database_unavailable`. After {@link MAX_RESTART_FAILURES} failures in a row
 * {@link health} is down, so liveness asks for a restart (retries still go on).
 */
export class EngineRestart {
  private failures = 0;
  private lastReason = '';
  private running = false;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly logger: Logger,
    private readonly attempt: () => Promise<void>,
  ) {}

  /** Starts replacing, unless a replacement is already under way. */
  start(): void {
    if (!this.running) {
      this.running = true;
      this.schedule(0);
    }
  }

  /** No attempt starts after this, until the next {@link start}. */
  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
  }

  health(): EngineHealth {
    return this.failures >= MAX_RESTART_FAILURES
      ? {
          up: false,
          reason: `the embedded database could not be reopened (${this.failures} attempts in a row; last: ${this.lastReason})`,
        }
      : { up: true };
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => void this.tryOnce(), delayMs);
    this.timer.unref();
  }

  private async tryOnce(): Promise<void> {
    if (!this.running) {
      return;
    }
    try {
      await this.attempt();
      this.failures = 0;
      this.running = false;
      this.logger.log('embedded database reopened in a new worker');
    } catch (error) {
      this.failures++;
      this.lastReason = describe(error);
      const delay = Math.min(FIRST_DELAY_MS * 2 ** (this.failures - 1), MAX_DELAY_MS);
      this.logger.error(
        `embedded database could not be reopened (${this.lastReason}); retrying in ${delay} ms`,
      );
      if (this.running) {
        this.schedule(delay);
      }
    }
  }
}

/** A reason safe to log and show: our own error messages, else the error's class only. */
function describe(error: unknown): string {
  const known = classifyDatabaseError(error);
  return known instanceof DomainError ? known.message : ((error as Error)?.name ?? 'Error');
}
