import { DomainError } from '@app/common';
import { Logger } from '@nestjs/common';
import {
  BrokenCircuitError,
  circuitBreaker,
  type CircuitBreakerPolicy,
  CircuitState,
  ConsecutiveBreaker,
  handleWhen,
} from 'cockatiel';

import {
  PodiumCallerDeadlineError,
  PodiumCircuitOpenError,
  PodiumUnavailableError,
} from './podium-api.errors';

/** A caller deadline shorter than this is no evidence that Podium is slow (its p99 is higher). */
const MIN_EVIDENCE_MS = 250;

/** Options for {@link PodiumBreaker} (from `ResolvedPodiumApiOptions`). */
export interface PodiumBreakerOptions {
  breakerFailures: number;
  breakerCooldownMs: number;
}

/**
 * The circuit breaker in front of Podium, and the rule for what counts as evidence against
 * it: only {@link PodiumUnavailableError} (5xx, network, a deadline long enough to mean
 * something). After `breakerFailures` in a row it opens and calls fail fast with
 * {@link PodiumCircuitOpenError} until, after `breakerCooldownMs`, one probe is let through.
 */
export class PodiumBreaker {
  private readonly logger = new Logger('PodiumApi');
  private readonly policy: CircuitBreakerPolicy;

  constructor(options: PodiumBreakerOptions) {
    this.policy = circuitBreaker(
      handleWhen((error) => error instanceof PodiumUnavailableError),
      {
        halfOpenAfter: options.breakerCooldownMs,
        breaker: new ConsecutiveBreaker(options.breakerFailures),
      },
    );
    this.policy.onBreak(() =>
      this.logger.warn(
        `Podium failed ${options.breakerFailures} times in a row; live lookups fail fast ` +
          `for ${options.breakerCooldownMs} ms`,
      ),
    );
    this.policy.onReset(() => this.logger.log('Podium answered a probe; live lookups resume'));
  }

  /** False while open or while a half-open probe is out. */
  get closed(): boolean {
    return this.policy.state === CircuitState.Closed;
  }

  /** Runs one lookup under the breaker, or fails fast when it is not closed. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    // Cockatiel queues calls behind a half-open probe; a deadline-bound caller is better
    // served failing fast than waiting on a probe that may hang.
    if (this.policy.state === CircuitState.HalfOpen) {
      throw new PodiumCircuitOpenError();
    }
    try {
      return await this.policy.execute(() => this.judged(work, signal));
    } catch (error) {
      if (error instanceof BrokenCircuitError) {
        throw new PodiumCircuitOpenError();
      }
      throw error;
    }
  }

  /**
   * The deadline passing while Podium (the token endpoint included) has not answered is a
   * timeout, and counts as a failure: otherwise a caller's abort would read as a success to
   * a half-open breaker and close it.
   */
  private async judged<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } catch (error) {
      const timedOut =
        signal?.aborted &&
        (error instanceof PodiumUnavailableError || !(error instanceof DomainError));
      if (!timedOut) {
        throw error;
      }
      // Only a wait long enough to say something about Podium counts against the breaker;
      // a half-open probe's abort always counts, or it would read as a success.
      if (performance.now() - started < MIN_EVIDENCE_MS && this.closed) {
        throw new PodiumCallerDeadlineError();
      }
      throw new PodiumUnavailableError('Podium did not answer before the deadline');
    }
  }
}
