import { EnvBoolean, EnvInt, EnvOneOf } from './decorators';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const NODE_ENVS = ['development', 'production', 'test'] as const;

/** The process itself: port, environment, log level. */
export class ServerEnv {
  @EnvInt(0, 65535)
  PORT?: number;

  /** The R42 spec's name for the port; accepted as an alias of PORT. */
  @EnvInt(0, 65535)
  CHAT_PORT?: number;

  @EnvOneOf(NODE_ENVS)
  NODE_ENV?: (typeof NODE_ENVS)[number];

  @EnvOneOf(LOG_LEVELS)
  LOG_LEVEL?: (typeof LOG_LEVELS)[number];

  /**
   * With NODE_ENV=production, lets the demo set run (local curriculum and CRM, demo seed):
   * without it production refuses to boot on them (see `demo-providers.ts`).
   */
  @EnvBoolean()
  ALLOW_DEMO_PROVIDERS?: boolean;

  /** A request body must have fully arrived this long after the request began (408 after). */
  @EnvInt(100, 600_000)
  HTTP_BODY_TIMEOUT_MS?: number;

  /**
   * On SIGTERM, requests in flight get this long to finish; then every socket still open (a
   * client trickling headers or a body) is closed, so shutdown fits the orchestrator's grace.
   */
  @EnvInt(0, 600_000)
  SHUTDOWN_DRAIN_MS?: number;

  /**
   * The main thread's V8 heap may grow this far past what the last full GC kept before the
   * next one (0: V8's own, up to 300% on a large machine: most of the RSS under load).
   */
  @EnvInt(0, 300)
  HEAP_GROWING_PERCENT?: number;
}
