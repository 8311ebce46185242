import { availableParallelism } from 'node:os';

import { DATABASE_DEFAULTS } from '@app/database';
import { parseTokenEncryptionKey } from '@app/podium';
import { parsePhoneRegions, parseRedactEntities } from '@app/redaction';
import { plainToInstance } from 'class-transformer';
import { type ValidationError, validateSync } from 'class-validator';

import { SIGNATURE_TOLERANCE_MS } from '../webhooks/podium-signature';
import { type AppConfig } from './app-config';
import { EnvSchema } from './env.schema';
import { readSecuritySettings } from './security-config';

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

/** Cross-field rules that a single decorator cannot express. */
function crossFieldProblems(env: EnvSchema): string[] {
  const problems: string[] = [];
  if (env.EMBEDDING_PROVIDER === 'openai' && !env.OPENAI_API_KEY) {
    problems.push('OPENAI_API_KEY: required when EMBEDDING_PROVIDER=openai');
  }
  if (env.EMBEDDING_PROVIDER === 'tei' && !env.TEI_URL) {
    problems.push('TEI_URL: required when EMBEDDING_PROVIDER=tei');
  }
  if (env.RERANK_PROVIDER === 'tei' && !env.TEI_RERANK_URL && !env.TEI_URL) {
    problems.push('TEI_RERANK_URL: required when RERANK_PROVIDER=tei');
  }
  if (env.RERANK_PROVIDER === 'cohere' && !env.COHERE_API_KEY) {
    problems.push('COHERE_API_KEY: required when RERANK_PROVIDER=cohere');
  }
  try {
    parseRedactEntities(env.REDACT_ENTITIES);
  } catch (error) {
    problems.push(`REDACT_ENTITIES: ${(error as Error).message}`);
  }
  try {
    parsePhoneRegions(env.REDACT_PHONE_REGIONS);
  } catch (error) {
    problems.push(`REDACT_PHONE_REGIONS: ${(error as Error).message}`);
  }
  if (env.VECTOR_PROVIDER === 'qdrant' && !env.QDRANT_URL) {
    problems.push('QDRANT_URL: required when VECTOR_PROVIDER=qdrant');
  }
  if (env.PODIUM_PROVIDER === 'api') {
    for (const name of [
      'PODIUM_CLIENT_ID',
      'PODIUM_CLIENT_SECRET',
      'PODIUM_REFRESH_TOKEN',
    ] as const) {
      if (!env[name]) {
        problems.push(`${name}: required when PODIUM_PROVIDER=api`);
      }
    }
  }
  if (
    env.PODIUM_TOKEN_ENCRYPTION_KEY &&
    !parseTokenEncryptionKey(env.PODIUM_TOKEN_ENCRYPTION_KEY)
  ) {
    problems.push(
      'PODIUM_TOKEN_ENCRYPTION_KEY: expected a 256-bit key, 64 hex characters or base64 of 32 bytes (e.g. `openssl rand -hex 32`)',
    );
  }
  if (env.LLM_PROVIDER === 'anthropic' && !env.ANTHROPIC_API_KEY) {
    problems.push('ANTHROPIC_API_KEY: required when LLM_PROVIDER=anthropic');
  }
  if (env.LLM_PROVIDER === 'openai' && !env.OPENAI_API_KEY) {
    problems.push('OPENAI_API_KEY: required when LLM_PROVIDER=openai');
  }
  if (env.RERANK_PROVIDER === 'llm' && (env.LLM_PROVIDER ?? 'extractive') === 'extractive') {
    // The extractive answerer quotes passages; it cannot grade them.
    problems.push('RERANK_PROVIDER: llm needs LLM_PROVIDER=anthropic or openai');
  }
  if (env.CURRICULUM_PROVIDER === 'pocketbase') {
    for (const name of [
      'POCKETBASE_URL',
      'POCKETBASE_ADMIN_EMAIL',
      'POCKETBASE_ADMIN_PASSWORD',
    ] as const) {
      if (!env[name]) {
        problems.push(`${name}: required when CURRICULUM_PROVIDER=pocketbase`);
      }
    }
  }
  return problems;
}

/** Validates `raw` (normally `process.env`) and maps it into the typed config. */
export function loadConfig(raw: Record<string, string | undefined>): AppConfig {
  const env = plainToInstance(EnvSchema, raw, { exposeDefaultValues: true });
  const secure = readSecuritySettings(env);
  const problems = [
    ...describe(validateSync(env, { stopAtFirstError: true })),
    ...crossFieldProblems(env),
    ...secure.problems,
  ];
  if (problems.length > 0) {
    throw new InvalidEnvironmentError(problems);
  }
  return {
    server: {
      port: env.PORT ?? env.CHAT_PORT ?? 3004,
      env: env.NODE_ENV ?? 'development',
      logLevel: env.LOG_LEVEL ?? 'info',
      trustProxy: secure.settings.trustProxy,
    },
    storage: {
      vectorProvider: env.VECTOR_PROVIDER ?? 'pgvector',
      dataDir: env.DATA_DIR ?? './data',
      databaseUrl: env.DATABASE_URL,
      database: {
        poolMax: env.DATABASE_POOL_MAX ?? DATABASE_DEFAULTS.poolMax,
        statementTimeoutMs:
          env.DATABASE_STATEMENT_TIMEOUT_MS ?? DATABASE_DEFAULTS.statementTimeoutMs,
        connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS ?? DATABASE_DEFAULTS.connectTimeoutMs,
      },
      qdrantUrl: env.QDRANT_URL,
      qdrantApiKey: env.QDRANT_API_KEY,
      qdrant: {
        timeoutMs: env.QDRANT_TIMEOUT_MS ?? 5000,
        collections: {
          source_chunks: env.QDRANT_COLLECTION_SOURCE_CHUNKS ?? 'source_chunks',
          topic_summaries: env.QDRANT_COLLECTION_TOPIC_SUMMARIES ?? 'topic_summaries',
          conversations: env.QDRANT_COLLECTION_CONVERSATIONS ?? 'podium_conversations',
        },
      },
      redisUrl: env.REDIS_URL,
    },
    embedding: {
      provider: env.EMBEDDING_PROVIDER ?? 'local',
      model: env.EMBEDDING_MODEL,
      dimension: env.EMBEDDING_DIMENSION,
      // One per core: with the server in its own process, 2 workers on 2 cores served
      // /context at 70 req/s against 60 with one (concurrency 8, warm).
      workers: env.EMBEDDING_WORKERS ?? Math.min(4, Math.max(1, availableParallelism())),
      openaiApiKey: env.OPENAI_API_KEY,
      openaiBaseUrl: env.OPENAI_BASE_URL,
      teiUrl: env.TEI_URL,
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
      provider: env.PODIUM_PROVIDER ?? 'local',
      baseUrl: env.PODIUM_BASE_URL ?? 'https://api.podium.com/v4',
      tokenUrl: env.PODIUM_TOKEN_URL ?? 'https://accounts.podium.com/oauth/token',
      clientId: env.PODIUM_CLIENT_ID,
      clientSecret: env.PODIUM_CLIENT_SECRET,
      refreshToken: env.PODIUM_REFRESH_TOKEN,
      tokenEncryptionKey: env.PODIUM_TOKEN_ENCRYPTION_KEY,
      webhookSecret: env.PODIUM_WEBHOOK_SECRET,
      webhookToleranceMs: env.PODIUM_WEBHOOK_TOLERANCE_MS ?? SIGNATURE_TOLERANCE_MS,
      // A week: time to look at a failure and re-queue it, not a second archive of messages.
      deadLetterRetentionHours: env.PODIUM_WEBHOOK_DEAD_LETTER_RETENTION_HOURS ?? 168,
      apiVersion: env.PODIUM_API_VERSION,
      cacheTtlMs: env.PODIUM_CACHE_TTL_MS ?? 30_000,
      breakerFailures: env.PODIUM_BREAKER_FAILURES ?? 5,
      breakerCooldownMs: env.PODIUM_BREAKER_COOLDOWN_MS ?? 10_000,
    },
    context: {
      timeoutMs: env.CONTEXT_TIMEOUT_MS ?? 800,
      maxTokens: env.CONTEXT_MAX_TOKENS ?? 1500,
      poolK: env.POOL_K ?? 20,
      finalK: env.FINAL_K ?? 5,
      maxInFlight: env.CONTEXT_MAX_INFLIGHT ?? 16,
      coalesceTailWords: env.COALESCE_TAIL_WORDS ?? 8,
      coalesceTtlMs: env.COALESCE_TTL_MS ?? 10 * 60_000,
    },
    redaction: {
      entities: parseRedactEntities(env.REDACT_ENTITIES),
      phoneRegions: parsePhoneRegions(env.REDACT_PHONE_REGIONS),
    },
    chat: {
      scoreThreshold: env.CHAT_SCORE_THRESHOLD,
      themeBoost: env.CHAT_THEME_BOOST ?? 0.05,
      companyName: env.CHAT_COMPANY_NAME ?? 'R42 Demo Co',
    },
    llm: {
      provider: env.LLM_PROVIDER ?? 'extractive',
      model: env.LLM_MODEL ?? env.CHAT_MODEL,
      maxTokens: env.LLM_MAX_TOKENS ?? 1000,
      timeoutMs: env.LLM_TIMEOUT_MS ?? 30_000,
      maxAnswerChars: env.LLM_MAX_ANSWER_CHARS ?? 4000,
      anthropicApiKey: env.ANTHROPIC_API_KEY,
      anthropicBaseUrl: env.ANTHROPIC_BASE_URL,
      openaiApiKey: env.OPENAI_API_KEY,
      openaiBaseUrl: env.OPENAI_BASE_URL,
    },
    curriculum: {
      provider: env.CURRICULUM_PROVIDER ?? 'local',
      pocketbaseUrl: env.POCKETBASE_URL,
      pocketbaseAdminEmail: env.POCKETBASE_ADMIN_EMAIL,
      pocketbaseAdminPassword: env.POCKETBASE_ADMIN_PASSWORD,
    },
    ingest: {
      maxRecords: env.INGEST_MAX_RECORDS ?? 5000,
      maxInFlight: secure.settings.ingestMaxInFlight,
    },
    history: { retentionDays: env.HISTORY_RETENTION_DAYS },
    security: secure.settings.security,
    limits: secure.settings.limits,
    adapters: { vapiSecret: env.VAPI_SECRET },
    // Demo data belongs in the embedded store only, unless explicitly asked for.
    seedDemoData: env.SEED_DEMO_DATA ? env.SEED_DEMO_DATA === 'true' : !env.DATABASE_URL,
  };
}
