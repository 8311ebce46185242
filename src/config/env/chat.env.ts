import { CURRICULUM_PROVIDERS } from '@app/curriculum';
import { LLM_PROVIDERS } from '@app/llm';
import { IsOptional, IsString, MinLength } from 'class-validator';

import { EnvInt, EnvNumber, EnvOneOf, EnvUrl } from './decorators';

/** R42 chat: retrieval threshold and boost, the LLM, and the curriculum source. */
export class ChatEnv {
  @EnvNumber(-1, 1)
  CHAT_SCORE_THRESHOLD?: number;

  @EnvOneOf(LLM_PROVIDERS)
  LLM_PROVIDER?: (typeof LLM_PROVIDERS)[number];

  /** Model name (default: claude-haiku-4-5-20251001 for anthropic, gpt-4o-mini for openai). */
  @IsOptional()
  @IsString()
  @MinLength(1)
  LLM_MODEL?: string;

  /** The architecture notes' name for the model; accepted as an alias of LLM_MODEL. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  CHAT_MODEL?: string;

  @EnvInt(1, 32000)
  LLM_MAX_TOKENS?: number;

  /** Whole-answer generation deadline. */
  @EnvInt(100, 600000)
  LLM_TIMEOUT_MS?: number;

  /** Longest answer streamed, in characters; generation stops there. */
  @EnvInt(100, 100000)
  LLM_MAX_ANSWER_CHARS?: number;

  @IsOptional()
  @IsString()
  ANTHROPIC_API_KEY?: string;

  @EnvUrl()
  ANTHROPIC_BASE_URL?: string;

  /** The company named in the R42 system prompt. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  CHAT_COMPANY_NAME?: string;

  /** Score added to hits of the employee's current-week theme (the spec's 0.05). */
  @EnvNumber(0, 1)
  CHAT_THEME_BOOST?: number;

  @EnvOneOf(CURRICULUM_PROVIDERS)
  CURRICULUM_PROVIDER?: (typeof CURRICULUM_PROVIDERS)[number];

  @EnvUrl()
  POCKETBASE_URL?: string;

  @IsOptional()
  @IsString()
  POCKETBASE_ADMIN_EMAIL?: string;

  @IsOptional()
  @IsString()
  POCKETBASE_ADMIN_PASSWORD?: string;
}
