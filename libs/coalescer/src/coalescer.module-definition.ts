import { configurableRootModule } from '@app/common';

/**
 * Options for {@link CoalescerModule}; all optional. The per-call tail lives in Redis when the
 * app imports `RedisModule` with a URL (every replica sees it), else in memory.
 */
export interface CoalescerModuleOptions {
  /**
   * Words of previous speech prepended to each chunk (default 8, about 3 s at 150 words a
   * minute). 0 disables coalescing. Mutually exclusive with `tailMs`.
   */
  tailWords?: number;
  /** The tail as speech time, converted at 150 words a minute and rounded up to ≥ 1 word. */
  tailMs?: number;
  /** Idle time after which a call's tail is forgotten (default 10 minutes). */
  ttlMs?: number;
  /** In-memory store only: most calls tracked at once, least recently fed evicted (10,000). */
  maxCalls?: number;
  /** Hard cap on a stored tail in characters (default 256), whatever the words look like. */
  maxTailChars?: number;
  /** Redis only: per-command timeout (default 50 ms); the request must not wait on state. */
  redisTimeoutMs?: number;
  /** Redis only: how long boot waits for the first connection before going on without it. */
  redisConnectTimeoutMs?: number;
}

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: COALESCER_OPTIONS } =
  configurableRootModule<CoalescerModuleOptions>();
