import { type CoalescerModuleOptions } from '@app/coalescer';
import { type CurriculumModuleOptions } from '@app/curriculum';
import { type DatabaseOptions } from '@app/database';
import { type EmbeddingModuleOptions } from '@app/embedding';
import { type LlmModuleOptions } from '@app/llm';
import { type PodiumModuleOptions } from '@app/podium';
import { type RedactionModuleOptions } from '@app/redaction';
import { type RerankModuleOptions } from '@app/rerank';
import { type VectorModuleOptions } from '@app/vector';

import { type ApiKeyEntry } from './api-key-entries';
import { type LOG_LEVELS, type NODE_ENVS } from './env.schema';

/** How `POST /chat` learns who is asking. */
export type ChatAuthConfig =
  | { mode: 'none' }
  /** NODE_ENV=production and CHAT_AUTH unset: every `POST /chat` is refused until one is chosen. */
  | { mode: 'closed' }
  | {
      mode: 'jwt';
      /** HS256 shared secret; exactly one of `secret` and `jwksUrl` is set. */
      secret?: string;
      jwksUrl?: string;
      issuer?: string;
      audience?: string[];
    };

/**
 * Fastify's `trustProxy`: which hops may set the client IP through `X-Forwarded-For`. Never
 * `true` (every hop, so the client's own header): TRUST_PROXY=true is read as one hop.
 */
export type TrustProxy = false | number | string[];

/**
 * The typed, nested configuration every module receives; built once from the env. A lib's
 * slice is that lib's own options type, mounted as is (`VectorModule.forRoot({ isGlobal:
 * true, ...config.storage.vector })`); the lib fills what the env leaves unset.
 */
export interface AppConfig {
  server: {
    port: number;
    env: (typeof NODE_ENVS)[number];
    logLevel: (typeof LOG_LEVELS)[number];
    trustProxy: TrustProxy;
    /** A request body must arrive within this long; then 408 `body_timeout`. */
    bodyTimeoutMs: number;
    /** On shutdown, requests in flight get this long; then every open socket is closed. */
    shutdownDrainMs: number;
    /** How far the main thread's V8 heap grows past its live size before a full GC (0: V8's). */
    heapGrowingPercent: number;
  };
  storage: {
    /** Embedded PGlite (`dataDir`, `memory://` keeps it in RAM) or a server (`databaseUrl`). */
    database: DatabaseOptions;
    vector: VectorModuleOptions;
    /** Shared state across replicas (rate limits, coalescer tails, contact cache). */
    redisUrl?: string;
  };
  embedding: EmbeddingModuleOptions;
  rerank: RerankModuleOptions;
  podium: PodiumModuleOptions;
  /** Podium's webhook deliveries (`POST /webhooks/podium`). */
  webhooks: {
    secret?: string;
    /** A delivery signed further than this from our clock is refused as a replay. */
    toleranceMs: number;
    /** Dead-lettered events lose their payload after this long (0: at once). */
    deadLetterRetentionHours: number;
  };
  context: {
    timeoutMs: number;
    maxTokens: number;
    poolK: number;
    finalK: number;
    /** Without a request's `final_k`, the bundle may fill up to this many excerpts. */
    maxExcerpts: number;
    maxInFlight: number;
  };
  /** Live calls: prefetch, speculation on interim speech and the call's own memory. */
  calls: {
    maxCalls: number;
    maxCallsPerCaller: number;
    /** A call idle this long ends and its turns join the contact's history. */
    idleMs: number;
    speculation: boolean;
    /** Term Jaccard in [0, 1] a final query needs to be served from the speculated pool. */
    matchThreshold: number;
  };
  relevance: {
    /** The whole /relevance deadline. */
    timeoutMs: number;
    /** Calls scored at once; more wait briefly, then get 503 `overloaded`. */
    maxInFlight: number;
  };
  coalescer: CoalescerModuleOptions;
  redaction: RedactionModuleOptions;
  chat: { themeBoost: number; companyName: string };
  llm: LlmModuleOptions;
  /** The local provider's data is the app's demo set, added where the module is mounted. */
  curriculum: Omit<CurriculumModuleOptions, 'localData'>;
  ingest: {
    maxRecords: number;
    /** Ingestion requests processed at once; more are refused with 429 `ingest_busy`. */
    maxInFlight: number;
  };
  history: {
    /** Messages older than this are purged hourly; undefined keeps history forever. */
    retentionDays?: number;
    /** A message dated further ahead of the server's clock is refused (`occurred_at_in_future`). */
    maxFutureMs: number;
  };
  security: {
    /** Hashed keys; empty means the service runs open (refused when NODE_ENV=production). */
    apiKeys: ApiKeyEntry[];
    /**
     * API_KEYS_FILE, followed while the server runs: on a change or SIGHUP the keys become
     * `fixedKeys` (API_KEYS's) plus the file's entries.
     */
    apiKeysFile?: { path: string; fixedKeys: ApiKeyEntry[] };
    metricsRequireKey: boolean;
    chatAuth: ChatAuthConfig;
    /** Browser origins allowed by CORS (`*` for any); empty disables CORS. */
    corsOrigins: string[];
  };
  limits: {
    /** Requests per minute per API key; 0 is off. */
    perKeyPerMinute: number;
    /** Requests per minute per client IP, for calls without a valid key; 0 is off. */
    perIpPerMinute: number;
  };
  adapters: {
    /**
     * Vapi server secrets (VAPI_SECRETS, plus a legacy VAPI_SECRET as an unbound entry),
     * matched like API keys; each one's locations scope the calls it admits. Empty: Vapi
     * needs an API key.
     */
    vapiSecrets: ApiKeyEntry[];
  };
  seedDemoData: boolean;
  /**
   * `server` runs the background work (webhook worker, schedulers, warm-up, key-file
   * reloads); `cli` is one command that must not: it would drain the inbox beside the server.
   */
  role: 'server' | 'cli';
  /** Said once at boot: what production runs without because its variable was unset. */
  bootWarning?: string;
  /**
   * PODIUM_PROVIDER=local where the demo set may not run (production): the local CRM must
   * hold imported contacts (`contacts import`), never the demo ones; checked at boot.
   */
  localCrmImportedOnly?: boolean;
  /**
   * OpenTelemetry traces (`src/tracing/`). The SDK reads its standard `OTEL_*` variables
   * itself; this says whether to start it at all and under which service name.
   */
  telemetry: {
    /** An OTLP endpoint (or the console exporter) is set and the SDK is not disabled. */
    enabled: boolean;
    serviceName: string;
    /** TELEMETRY_HASH_KEY: the key of the hashes logs and spans carry for contact ids. */
    hashKey?: string;
    /** SLOW_CALL_LOG_MS: /context calls slower than this are logged with their stages. */
    slowCallMs?: number;
  };
}

export const APP_CONFIG = 'APP_CONFIG';
