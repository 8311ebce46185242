import { type Logger } from '@nestjs/common';

import { DependencyError } from './errors';

/** Pause between attempts while a start-up dependency cannot be reached. */
export const STARTUP_RETRY_MS = 5000;

/**
 * Runs a start-up step that needs a server (the database, the vector store). The first
 * attempt is awaited; a DependencyError (the server is unreachable) does not fail the boot
 * but is retried in the background every `retryMs` until it succeeds or {@link stop} is
 * called. Anything else, such as a dimension mismatch, still fails the boot. `then` runs
 * once, after the attempt that succeeded.
 */
export class StartupRetry {
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly logger: Logger,
    private readonly messages: { down: string; failed: string },
    private readonly onFailure: (error: Error) => void = () => undefined,
    private readonly retryMs = STARTUP_RETRY_MS,
  ) {}

  async run(
    attempt: () => Promise<void>,
    then: () => Promise<void> = () => Promise.resolve(),
  ): Promise<void> {
    try {
      await attempt();
    } catch (error) {
      if (!(error instanceof DependencyError) || this.stopped) {
        throw error;
      }
      this.onFailure(error);
      this.logger.error(`${this.messages.down}: ${error.message}; retrying in ${this.retryMs} ms`);
      this.timer = setTimeout(() => {
        this.run(attempt, then).catch((e: unknown) => {
          this.onFailure(e as Error);
          this.logger.error(`${this.messages.failed}: ${(e as Error).message}`);
        });
      }, this.retryMs);
      return;
    }
    await then();
  }

  /** No attempt starts after this (call it before closing what the step opens). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
