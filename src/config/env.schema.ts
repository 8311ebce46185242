import { Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  Min,
  MinLength,
} from 'class-validator';

const toOptionalNumber = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : Number(value);
const emptyAsUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);
const url = { require_tld: false, protocols: ['http', 'https'] };

export const EMBEDDING_PROVIDERS = ['local', 'openai', 'tei'] as const;
export const VECTOR_PROVIDERS = ['pgvector', 'qdrant'] as const;
export const PODIUM_PROVIDERS = ['local', 'api'] as const;
export const RERANK_PROVIDERS = ['fusion', 'none', 'tei', 'cohere'] as const;
export const LLM_PROVIDERS = ['extractive', 'anthropic', 'openai'] as const;
export const CURRICULUM_PROVIDERS = ['local', 'pocketbase'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Every environment variable the service reads, validated once at boot. Nothing else reads
 * `process.env`. Defaults give the embedded mode; `.env.example` documents each variable.
 */
export class EnvSchema {
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  /** The R42 spec's name for the port; accepted as an alias of PORT. */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(0)
  @Max(65535)
  CHAT_PORT?: number;

  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV?: 'development' | 'production' | 'test';

  @IsOptional()
  @IsIn(LOG_LEVELS)
  LOG_LEVEL?: (typeof LOG_LEVELS)[number];

  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsString()
  @MinLength(1)
  DATA_DIR?: string;

  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsUrl({ require_tld: false, protocols: ['postgres', 'postgresql'] })
  DATABASE_URL?: string;

  @IsOptional()
  @IsIn(VECTOR_PROVIDERS)
  VECTOR_PROVIDER?: (typeof VECTOR_PROVIDERS)[number];

  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsUrl(url)
  QDRANT_URL?: string;

  @IsOptional()
  @IsString()
  QDRANT_API_KEY?: string;

  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsUrl({ require_tld: false, protocols: ['redis', 'rediss'] })
  REDIS_URL?: string;

  @IsOptional()
  @IsIn(EMBEDDING_PROVIDERS)
  EMBEDDING_PROVIDER?: (typeof EMBEDDING_PROVIDERS)[number];

  @IsOptional()
  @IsString()
  @MinLength(1)
  EMBEDDING_MODEL?: string;

  /** Only needed when a provider's model dimension is not known in advance (TEI, custom). */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1)
  @Max(16000)
  EMBEDDING_DIMENSION?: number;

  /** Worker threads for the local embedder (default: CPU cores, at most 4). */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1)
  @Max(16)
  EMBEDDING_WORKERS?: number;

  @IsOptional()
  @IsString()
  OPENAI_API_KEY?: string;

  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsUrl(url)
  OPENAI_BASE_URL?: string;

  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsUrl(url)
  TEI_URL?: string;

  @IsOptional()
  @Transform(toOptionalNumber)
  @IsNumber()
  @Min(-1)
  @Max(1)
  CHAT_SCORE_THRESHOLD?: number;

  @IsOptional()
  @IsIn(PODIUM_PROVIDERS)
  PODIUM_PROVIDER?: (typeof PODIUM_PROVIDERS)[number];

  @IsOptional()
  @IsIn(RERANK_PROVIDERS)
  RERANK_PROVIDER?: (typeof RERANK_PROVIDERS)[number];

  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsUrl(url)
  TEI_RERANK_URL?: string;

  @IsOptional()
  @IsString()
  COHERE_API_KEY?: string;

  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsUrl(url)
  COHERE_BASE_URL?: string;

  @IsOptional()
  @IsString()
  COHERE_RERANK_MODEL?: string;

  /** The whole /context deadline in ms (the spec's 800). */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(50)
  @Max(5000)
  CONTEXT_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1)
  @Max(32000)
  CONTEXT_MAX_TOKENS?: number;

  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1)
  @Max(100)
  POOL_K?: number;

  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1)
  @Max(50)
  FINAL_K?: number;

  /** /context builds in flight before new ones wait (and are shed if they cannot start in time). */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1)
  @Max(1000)
  CONTEXT_MAX_INFLIGHT?: number;

  /** Words of the previous transcript chunk(s) carried into the next query. */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(0)
  @Max(64)
  COALESCE_TAIL_WORDS?: number;

  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1000)
  @Max(86400000)
  COALESCE_TTL_MS?: number;

  /** Comma list of entity types to redact (default: all). */
  @IsOptional()
  @IsString()
  REDACT_ENTITIES?: string;

  /** Comma list of ISO regions for phone detection (default: US). */
  @IsOptional()
  @IsString()
  REDACT_PHONE_REGIONS?: string;

  /** Skip seeding the demo data set into an empty embedded store. */
  @IsOptional()
  @IsIn(['true', 'false'])
  SEED_DEMO_DATA?: 'true' | 'false';

  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1)
  @Max(10000)
  INGEST_MAX_RECORDS?: number;

  // --- Qdrant (VECTOR_PROVIDER=qdrant) ---
  @IsOptional()
  @IsString()
  @MinLength(1)
  QDRANT_COLLECTION_SOURCE_CHUNKS?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  QDRANT_COLLECTION_TOPIC_SUMMARIES?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  QDRANT_COLLECTION_CONVERSATIONS?: string;

  /** Per-request timeout towards Qdrant, and the most start-up waits for it. */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(100)
  @Max(120000)
  QDRANT_TIMEOUT_MS?: number;

  // --- Podium (PODIUM_PROVIDER=api) ---
  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsUrl(url)
  PODIUM_BASE_URL?: string;

  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsUrl(url)
  PODIUM_TOKEN_URL?: string;

  @IsOptional()
  @IsString()
  PODIUM_CLIENT_ID?: string;

  @IsOptional()
  @IsString()
  PODIUM_CLIENT_SECRET?: string;

  @IsOptional()
  @IsString()
  PODIUM_REFRESH_TOKEN?: string;

  @IsOptional()
  @IsString()
  PODIUM_WEBHOOK_SECRET?: string;

  /** Sent as the `podium-version` header when set. */
  @IsOptional()
  @IsString()
  PODIUM_API_VERSION?: string;

  /** Live-contact cache TTL; 0 turns the cache off. */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(0)
  @Max(3600000)
  PODIUM_CACHE_TTL_MS?: number;

  /** Consecutive failures that open the circuit breaker. */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1)
  @Max(1000)
  PODIUM_BREAKER_FAILURES?: number;

  /** How long an open breaker waits before a half-open probe. */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(100)
  @Max(600000)
  PODIUM_BREAKER_COOLDOWN_MS?: number;

  // --- R42 chat ---
  @IsOptional()
  @IsIn(LLM_PROVIDERS)
  LLM_PROVIDER?: (typeof LLM_PROVIDERS)[number];

  /** Model name (default: claude-haiku-4-5-20251001 for anthropic, gpt-4o-mini for openai). */
  @IsOptional()
  @IsString()
  @MinLength(1)
  LLM_MODEL?: string;

  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1)
  @Max(32000)
  LLM_MAX_TOKENS?: number;

  /** Whole-answer generation deadline. */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(100)
  @Max(600000)
  LLM_TIMEOUT_MS?: number;

  /** Longest answer streamed, in characters; generation stops there. */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(100)
  @Max(100000)
  LLM_MAX_ANSWER_CHARS?: number;

  @IsOptional()
  @IsString()
  ANTHROPIC_API_KEY?: string;

  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsUrl(url)
  ANTHROPIC_BASE_URL?: string;

  /** The company named in the R42 system prompt. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  CHAT_COMPANY_NAME?: string;

  /** Score added to hits of the employee's current-week theme (the spec's 0.05). */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsNumber()
  @Min(0)
  @Max(1)
  CHAT_THEME_BOOST?: number;

  @IsOptional()
  @IsIn(CURRICULUM_PROVIDERS)
  CURRICULUM_PROVIDER?: (typeof CURRICULUM_PROVIDERS)[number];

  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsUrl(url)
  POCKETBASE_URL?: string;

  @IsOptional()
  @IsString()
  POCKETBASE_ADMIN_EMAIL?: string;

  @IsOptional()
  @IsString()
  POCKETBASE_ADMIN_PASSWORD?: string;
}
