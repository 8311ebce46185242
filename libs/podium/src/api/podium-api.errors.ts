import { DependencyError } from '@app/common';

/**
 * Podium did not answer usefully: a 5xx, a malformed body, a network failure, or no answer
 * before the deadline. These, and only these, count towards opening the circuit breaker; a
 * 404, a 429 or an auth failure is Podium answering, not Podium failing.
 */
export class PodiumUnavailableError extends DependencyError {
  constructor(message: string) {
    super('podium_unavailable', message);
  }
}

/** The breaker is open (or a half-open probe is already out): failing fast, no request made. */
export class PodiumCircuitOpenError extends DependencyError {
  constructor() {
    super(
      'podium_circuit_open',
      'Podium kept failing; live lookups are paused until a probe succeeds.',
    );
  }
}

/** Podium said 429 and the wait it asked for does not fit this call. */
export class PodiumRateLimitedError extends DependencyError {
  constructor() {
    super('podium_rate_limited', 'Podium is rate limiting this client; try again later.');
  }
}

/**
 * The caller's own deadline ran out before Podium could reasonably answer: no evidence
 * about Podium, so it does not count towards the breaker (one client's 50 ms budget must
 * not pause live lookups for every tenant).
 */
export class PodiumCallerDeadlineError extends DependencyError {
  constructor() {
    super('podium_deadline', "The caller's deadline ran out before Podium answered.");
  }
}
