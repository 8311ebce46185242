import { parseTokenEncryptionKey } from '@app/podium';
import { parsePhoneRegions, parseRedactEntities } from '@app/redaction';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

import { SIGNATURE_TOLERANCE_MS } from '../webhooks/podium-signature';
import { type AppConfig } from './app-config';
import { chooseDemoProviders, demoAllowed, demoProviderProblems } from './demo-providers';
import { EnvSchema } from './env.schema';
import { readSecuritySettings } from './security-config';
import { readVapiSecrets } from './vapi-secrets-config';

/** Thrown at boot with every bad variable listed, so an operator fixes them in one go. */
export class InvalidEnvironmentError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment (${problems.length} problem(s)):\n  - ${problems.join('\n  - ')}`);
    this.name = 'InvalidEnvironmentError';
  }
}

function describe(errors: ValidationError[]): string[] {
  return errors.flatMap((e) =>
    Object.values(e.constraints ?? {}).map((msg) => `${e.property}: ${msg}`),
  );
}

type Variable = keyof EnvSchema;

/** Variables a choice cannot work without: `[when, the choice as written, what it needs]`. */
const REQUIRED_WITH: Array<[(env: EnvSchema) => boolean, string, Variable[]]> = [
  [(env) => env.REQUIRE_DATABASE_URL === true, 'REQUIRE_DATABASE_URL=true', ['DATABASE_URL']],
  [(env) => env.EMBEDDING_PROVIDER === 'openai', 'EMBEDDING_PROVIDER=openai', ['OPENAI_API_KEY']],
  [(env) => env.EMBEDDING_PROVIDER === 'tei', 'EMBEDDING_PROVIDER=tei', ['TEI_URL']],
  [
    (env) => env.RERANK_PROVIDER === 'tei' && !env.TEI_URL,
    'RERANK_PROVIDER=tei',
    ['TEI_RERANK_URL'],
  ],
  [(env) => env.RERANK_PROVIDER === 'cohere', 'RERANK_PROVIDER=cohere', ['COHERE_API_KEY']],
  [(env) => env.VECTOR_PROVIDER === 'qdrant', 'VECTOR_PROVIDER=qdrant', ['QDRANT_URL']],
  [
    (env) => env.PODIUM_PROVIDER === 'api',
    'PODIUM_PROVIDER=api',
    ['PODIUM_CLIENT_ID', 'PODIUM_CLIENT_SECRET', 'PODIUM_REFRESH_TOKEN'],
  ],
  [(env) => env.LLM_PROVIDER === 'anthropic', 'LLM_PROVIDER=anthropic', ['ANTHROPIC_API_KEY']],
  [(env) => env.LLM_PROVIDER === 'openai', 'LLM_PROVIDER=openai', ['OPENAI_API_KEY']],
  [
    (env) => env.CURRICULUM_PROVIDER === 'pocketbase',
    'CURRICULUM_PROVIDER=pocketbase',
    ['POCKETBASE_URL', 'POCKETBASE_ADMIN_EMAIL', 'POCKETBASE_ADMIN_PASSWORD'],
  ],
];

/** The message of what `parse` throws, or nothing. */
function problemOf(name: Variable, parse: () => unknown): string[] {
  try {
    parse();
    return [];
  } catch (error) {
    return [`${name}: ${(error as Error).message}`];
  }
}

/** Cross-field rules that a single decorator cannot express. */
function crossFieldProblems(env: EnvSchema): string[] {
  const problems = REQUIRED_WITH.flatMap(([applies, choice, needs]) =>
    applies(env)
      ? needs.filter((name) => !env[name]).map((name) => `${name}: required when ${choice}`)
      : [],
  );
  problems.push(
    ...problemOf('REDACT_ENTITIES', () => parseRedactEntities(env.REDACT_ENTITIES)),
    ...problemOf('REDACT_PHONE_REGIONS', () => parsePhoneRegions(env.REDACT_PHONE_REGIONS)),
  );
  if (
    env.PODIUM_TOKEN_ENCRYPTION_KEY &&
    !parseTokenEncryptionKey(env.PODIUM_TOKEN_ENCRYPTION_KEY)
  ) {
    problems.push(
      'PODIUM_TOKEN_ENCRYPTION_KEY: expected a 256-bit key, 64 hex characters or base64 of 32 bytes (e.g. `openssl rand -hex 32`)',
    );
  }
  if (env.RERANK_PROVIDER === 'llm' && (env.LLM_PROVIDER ?? 'extractive') === 'extractive') {
    // The extractive answerer quotes passages; it cannot grade them.
    problems.push('RERANK_PROVIDER: llm needs LLM_PROVIDER=anthropic or openai');
  }
  return problems;
}

/** Off unless configured: an exporter with somewhere to send to, and no kill switch. */
function tracingEnabled(env: EnvSchema): boolean {
  const exporter = env.OTEL_TRACES_EXPORTER ?? 'otlp';
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return (
    env.OTEL_SDK_DISABLED !== true &&
    (exporter === 'console' || (exporter === 'otlp' && endpoint !== undefined))
  );
}

/**
 * Validates `raw` (the environment over `.env`, read by `ConfigModule.load`) and maps it into
 * the typed config.
 *
 * Every default is written once. A lib's settings default in the lib (`DEFAULT_<LIB>_OPTIONS`
 * next to its options type), so they pass through here unset; this mapping holds only what
 * the app decides: which provider each lib uses (the embedded mode), the data dir, and the
 * app's own settings. The env classes only parse.
 */
export function loadConfig(raw: Record<string, string | undefined>): AppConfig {
  const env = plainToInstance(EnvSchema, raw, { exposeDefaultValues: true });
  const secure = readSecuritySettings(env);
  const vapi = readVapiSecrets(env, secure.settings.security.apiKeys);
  const problems = [
    ...describe(validateSync(env, { stopAtFirstError: true })),
    ...crossFieldProblems(env),
    ...demoProviderProblems(env),
    ...secure.problems,
    ...vapi.problems,
  ];
  if (problems.length > 0) {
    throw new InvalidEnvironmentError(problems);
  }
  const providers = chooseDemoProviders(env);
  return {
    server: {
      port: env.PORT ?? env.CHAT_PORT ?? 3004,
      env: env.NODE_ENV ?? 'development',
      logLevel: env.LOG_LEVEL ?? 'info',
      trustProxy: secure.settings.trustProxy,
      bodyTimeoutMs: env.HTTP_BODY_TIMEOUT_MS ?? 30_000,
      // Under Kubernetes' default 30 s grace, with room for the modules' own shutdown.
      shutdownDrainMs: env.SHUTDOWN_DRAIN_MS ?? 10_000,
      heapGrowingPercent: env.HEAP_GROWING_PERCENT ?? 50,
    },
    storage: {
      database: {
        dataDir: env.DATA_DIR ?? './data',
        databaseUrl: env.DATABASE_URL,
        poolMax: env.DATABASE_POOL_MAX,
        statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
        connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
        rowSecurity: env.DATABASE_ROW_SECURITY,
        pgliteSharedBuffersMb: env.PGLITE_SHARED_BUFFERS_MB,
      },
      vector: {
        provider: env.VECTOR_PROVIDER ?? 'pgvector',
        qdrantUrl: env.QDRANT_URL,
        qdrantApiKey: env.QDRANT_API_KEY,
        qdrantTimeoutMs: env.QDRANT_TIMEOUT_MS,
        qdrantCollections: {
          source_chunks: env.QDRANT_COLLECTION_SOURCE_CHUNKS,
          topic_summaries: env.QDRANT_COLLECTION_TOPIC_SUMMARIES,
          conversations: env.QDRANT_COLLECTION_CONVERSATIONS,
        },
      },
      redisUrl: env.REDIS_URL,
    },
    embedding: {
      provider: env.EMBEDDING_PROVIDER ?? 'local',
      model: env.EMBEDDING_MODEL,
      dimension: env.EMBEDDING_DIMENSION,
      workers: env.EMBEDDING_WORKERS,
      bulkBatching: env.EMBEDDING_BULK_BATCHING,
      openaiApiKey: env.OPENAI_API_KEY,
      openaiBaseUrl: env.OPENAI_BASE_URL,
      teiUrl: env.TEI_URL,
      threshold: env.CHAT_SCORE_THRESHOLD,
    },
    rerank: {
      provider: env.RERANK_PROVIDER ?? 'fusion',
      teiUrl: env.TEI_RERANK_URL ?? env.TEI_URL,
      cohereApiKey: env.COHERE_API_KEY,
      cohereBaseUrl: env.COHERE_BASE_URL,
      cohereModel: env.COHERE_RERANK_MODEL,
      timeoutMs: env.RERANK_TIMEOUT_MS,
    },
    podium: {
      provider: providers.podium,
      baseUrl: env.PODIUM_BASE_URL,
      tokenUrl: env.PODIUM_TOKEN_URL,
      clientId: env.PODIUM_CLIENT_ID,
      clientSecret: env.PODIUM_CLIENT_SECRET,
      refreshToken: env.PODIUM_REFRESH_TOKEN,
      tokenEncryptionKey: env.PODIUM_TOKEN_ENCRYPTION_KEY,
      apiVersion: env.PODIUM_API_VERSION,
      cacheTtlMs: env.PODIUM_CACHE_TTL_MS,
      breakerFailures: env.PODIUM_BREAKER_FAILURES,
      breakerCooldownMs: env.PODIUM_BREAKER_COOLDOWN_MS,
    },
    webhooks: {
      secret: env.PODIUM_WEBHOOK_SECRET,
      toleranceMs: env.PODIUM_WEBHOOK_TOLERANCE_MS ?? SIGNATURE_TOLERANCE_MS,
      // A week: time to look at a failure and re-queue it, not a second archive of messages.
      deadLetterRetentionHours: env.PODIUM_WEBHOOK_DEAD_LETTER_RETENTION_HOURS ?? 168,
    },
    context: {
      timeoutMs: env.CONTEXT_TIMEOUT_MS ?? 800,
      maxTokens: env.CONTEXT_MAX_TOKENS ?? 1500,
      poolK: env.POOL_K ?? 20,
      finalK: env.FINAL_K ?? 5,
      maxExcerpts: env.CONTEXT_MAX_EXCERPTS ?? 12,
      maxInFlight: env.CONTEXT_MAX_INFLIGHT ?? 16,
    },
    calls: {
      maxCalls: env.CALLS_MAX ?? 1000,
      maxCallsPerCaller: env.CALLS_MAX_PER_CALLER ?? 500,
      idleMs: env.CALLS_IDLE_MS ?? 120_000,
      speculation: env.SPECULATION ?? true,
      matchThreshold: (env.SPECULATION_MATCH_PERCENT ?? 60) / 100,
    },
    // Up to 100 candidates of 20,000 characters: seconds of work, so its own deadline, and
    // one call at a time, so a flood cannot take the CPU live /context calls need. 9 s: the
    // largest body (48 such candidates under the 1 MB limit) embeds in ~3 s alone on 2 cores
    // and took up to 7.4 s beside a /relevance flood and live calls; at 5 s every admitted
    // call of that flood timed out (docs/benchmarks.md, "Under overload").
    relevance: {
      timeoutMs: env.RELEVANCE_TIMEOUT_MS ?? 9000,
      maxInFlight: env.RELEVANCE_MAX_INFLIGHT ?? 1,
    },
    coalescer: {
      tailWords: env.COALESCE_TAIL_WORDS,
      ttlMs: env.COALESCE_TTL_MS,
    },
    redaction: {
      entities: parseRedactEntities(env.REDACT_ENTITIES),
      phoneRegions: parsePhoneRegions(env.REDACT_PHONE_REGIONS),
    },
    chat: {
      themeBoost: env.CHAT_THEME_BOOST ?? 0.05,
      companyName: env.CHAT_COMPANY_NAME ?? 'R42 Demo Co',
    },
    llm: {
      provider: env.LLM_PROVIDER ?? 'extractive',
      model: env.LLM_MODEL ?? env.CHAT_MODEL,
      maxTokens: env.LLM_MAX_TOKENS,
      timeoutMs: env.LLM_TIMEOUT_MS,
      maxAnswerChars: env.LLM_MAX_ANSWER_CHARS,
      anthropicApiKey: env.ANTHROPIC_API_KEY,
      anthropicBaseUrl: env.ANTHROPIC_BASE_URL,
      openaiApiKey: env.OPENAI_API_KEY,
      openaiBaseUrl: env.OPENAI_BASE_URL,
    },
    curriculum: {
      provider: providers.curriculum,
      pocketbaseUrl: env.POCKETBASE_URL,
      pocketbaseAdminEmail: env.POCKETBASE_ADMIN_EMAIL,
      pocketbaseAdminPassword: env.POCKETBASE_ADMIN_PASSWORD,
    },
    ingest: {
      maxRecords: env.INGEST_MAX_RECORDS ?? 5000,
      maxInFlight: secure.settings.ingestMaxInFlight,
    },
    history: {
      retentionDays: env.HISTORY_RETENTION_DAYS,
      maxFutureMs: (env.HISTORY_MAX_FUTURE_SECONDS ?? 300) * 1000,
    },
    security: secure.settings.security,
    limits: secure.settings.limits,
    adapters: { vapiSecrets: vapi.secrets },
    // Demo data belongs in the embedded store only, unless explicitly asked for; never in
    // production unless the demo set is allowed there.
    telemetry: {
      enabled: tracingEnabled(env),
      serviceName: env.OTEL_SERVICE_NAME ?? 'context-bridge',
      hashKey: env.TELEMETRY_HASH_KEY,
      slowCallMs: env.SLOW_CALL_LOG_MS,
    },
    seedDemoData: env.SEED_DEMO_DATA ?? (!env.DATABASE_URL && demoAllowed(env)),
    role: 'server',
    bootWarning: providers.bootWarning,
    localCrmImportedOnly: providers.podium === 'local' && !demoAllowed(env),
  };
}
