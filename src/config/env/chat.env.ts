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

import { PodiumEnv } from './podium.env';
import { emptyAsUndefined, toOptionalNumber, url } from './transforms';

export const LLM_PROVIDERS = ['extractive', 'anthropic', 'openai'] as const;
export const CURRICULUM_PROVIDERS = ['local', 'pocketbase'] as const;

/** R42 chat: retrieval threshold and boost, the LLM, and the curriculum source. */
export class ChatEnv extends PodiumEnv {
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsNumber()
  @Min(-1)
  @Max(1)
  CHAT_SCORE_THRESHOLD?: number;

  @IsOptional()
  @IsIn(LLM_PROVIDERS)
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
