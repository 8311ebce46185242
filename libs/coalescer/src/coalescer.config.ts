import { ConfigurationError } from '@app/common';

import { type CoalescerModuleOptions } from './coalescer.module-definition';
import { tailWordsForMs } from './tail';

/**
 * Eight words is about 3 s of speech at 150 words a minute: enough to carry a lead-in such as
 * "can you check my order number" across an 800 ms chunk boundary, short enough that a
 * change of topic stops steering the query within a couple of chunks. Measured on the 11,877
 * values stated in the SGD dialogues, cut into 2-word (800 ms) chunks, the value plus three
 * words of lead-in land in one query 1.3% of the time with the spec's 200 ms (1 word), 86%
 * with 4 words, 97.4% with 6 and 99.2% with 8 (the bare value: 85%, 98.4%, 99.4%, 99.9%).
 * A structural proxy, not a retrieval score.
 */
export const DEFAULT_TAIL_WORDS = 8;
/** Ten minutes: longer than any hold music, short enough that abandoned calls go away. */
export const DEFAULT_TTL_MS = 10 * 60 * 1000;
export const DEFAULT_MAX_CALLS = 10_000;
/** Eight long words fit easily; a single 10 kB "word" does not get stored. */
export const DEFAULT_MAX_TAIL_CHARS = 256;
export const DEFAULT_REDIS_TIMEOUT_MS = 50;
export const DEFAULT_REDIS_CONNECT_TIMEOUT_MS = 1000;

/** Options with defaults applied and checked. */
export interface CoalescerConfig {
  tailWords: number;
  ttlMs: number;
  maxCalls: number;
  maxTailChars: number;
  redisTimeoutMs: number;
  redisConnectTimeoutMs: number;
}

function check(problems: string[], name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) {
    problems.push(`${name} must be an integer ≥ ${min} (got ${value})`);
  }
}

/** Applies defaults and reports every bad option at once, as boot-time config should. */
export function resolveCoalescerConfig(options: CoalescerModuleOptions): CoalescerConfig {
  const problems: string[] = [];
  if (options.tailWords !== undefined && options.tailMs !== undefined) {
    problems.push('set tailWords or tailMs, not both');
  }
  if (options.tailMs !== undefined && !(options.tailMs > 0)) {
    problems.push(`tailMs must be > 0 (got ${options.tailMs})`);
  }
  const config: CoalescerConfig = {
    tailWords:
      options.tailWords ??
      (options.tailMs !== undefined && options.tailMs > 0
        ? tailWordsForMs(options.tailMs)
        : DEFAULT_TAIL_WORDS),
    ttlMs: options.ttlMs ?? DEFAULT_TTL_MS,
    maxCalls: options.maxCalls ?? DEFAULT_MAX_CALLS,
    maxTailChars: options.maxTailChars ?? DEFAULT_MAX_TAIL_CHARS,
    redisTimeoutMs: options.redisTimeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS,
    redisConnectTimeoutMs: options.redisConnectTimeoutMs ?? DEFAULT_REDIS_CONNECT_TIMEOUT_MS,
  };
  check(problems, 'tailWords', config.tailWords, 0);
  check(problems, 'ttlMs', config.ttlMs, 1);
  check(problems, 'maxCalls', config.maxCalls, 1);
  check(problems, 'maxTailChars', config.maxTailChars, 1);
  check(problems, 'redisTimeoutMs', config.redisTimeoutMs, 1);
  check(problems, 'redisConnectTimeoutMs', config.redisConnectTimeoutMs, 0);
  if (problems.length > 0) {
    throw new ConfigurationError(`Invalid coalescer options: ${problems.join('; ')}.`);
  }
  return config;
}
