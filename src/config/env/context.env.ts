import { IsOptional, IsString } from 'class-validator';

import { EnvBoolean, EnvInt } from './decorators';

/** The context bridge pipeline (deadline, budgets, coalescing, redaction) and ingestion. */
export class ContextEnv {
  /** The whole /context deadline in ms (the spec's 800). */
  @EnvInt(50, 5000)
  CONTEXT_TIMEOUT_MS?: number;

  @EnvInt(1, 32000)
  CONTEXT_MAX_TOKENS?: number;

  @EnvInt(1, 100)
  POOL_K?: number;

  /** Distinct excerpts a /context bundle always offers to the budget (a request's `final_k` caps). */
  @EnvInt(1, 50)
  FINAL_K?: number;

  /** Without `final_k`: the most excerpts the budget may fill, past FINAL_K, near the best score. */
  @EnvInt(1, 50)
  CONTEXT_MAX_EXCERPTS?: number;

  /** /context builds in flight before new ones wait (and are shed if they cannot start in time). */
  @EnvInt(1, 1000)
  CONTEXT_MAX_INFLIGHT?: number;

  /** The whole /relevance deadline in ms; a call past it answers 503 `relevance_timeout`. */
  @EnvInt(100, 60000)
  RELEVANCE_TIMEOUT_MS?: number;

  /** /relevance calls scored at once; past it (after a short wait) 503 `overloaded`. */
  @EnvInt(1, 64)
  RELEVANCE_MAX_INFLIGHT?: number;

  /** Live calls tracked at once (prefetch, speculation, the call's own memory). */
  @EnvInt(1, 100000)
  CALLS_MAX?: number;

  /** Live calls one API key (or IP) may have tracked at once. */
  @EnvInt(1, 100000)
  CALLS_MAX_PER_CALLER?: number;

  /** A call with no event for this long ends: its turns join the contact's history. */
  @EnvInt(5000, 3600000)
  CALLS_IDLE_MS?: number;

  /** Retrieve on interim transcripts (`is_final: false`) ahead of the final one. */
  @EnvBoolean()
  SPECULATION?: boolean;

  /** Term Jaccard (percent) a final query needs with the speculated one to be served from it. */
  @EnvInt(50, 100)
  SPECULATION_MATCH_PERCENT?: number;

  /** Words of the previous transcript chunk(s) carried into the next query. */
  @EnvInt(0, 64)
  COALESCE_TAIL_WORDS?: number;

  @EnvInt(1000, 86400000)
  COALESCE_TTL_MS?: number;

  /** Comma list of entity types to redact (default: all). */
  @IsOptional()
  @IsString()
  REDACT_ENTITIES?: string;

  /** Comma list of ISO regions for phone detection (default: US). */
  @IsOptional()
  @IsString()
  REDACT_PHONE_REGIONS?: string;

  /** Seed the demo data set into an empty store (default: only into the embedded one). */
  @EnvBoolean()
  SEED_DEMO_DATA?: boolean;

  @EnvInt(1, 10000)
  INGEST_MAX_RECORDS?: number;

  /** Conversation messages older than this many days are purged hourly; unset keeps all. */
  @EnvInt(1, 36500)
  HISTORY_RETENTION_DAYS?: number;

  /** How far ahead of the server's clock a message may be dated (default 300 s). */
  @EnvInt(0, 86400)
  HISTORY_MAX_FUTURE_SECONDS?: number;
}
