import { ApiProperty, ApiPropertyOptional, type SchemaObject } from '@nestjs/swagger';
import {
  IsBoolean,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

import { uidProperty } from '../common/api-docs';
import { IsText, IsUid, NullAsOmitted } from '../common/validators';
import { ContextExplain } from './explain/context-explain.dto';
import { CallTurnExcerpt } from './speculative/call-memory';

const ASKED_AT_MAX_LENGTH = 40;
const ASKED_AT_PATTERN =
  /^(19|2[01])\d\d-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,9})?)?(Z|[+-]\d\d:\d\d)$/;

/** The spec's `context_fetch`: one live transcript chunk for one contact. */
export class ContextRequestDto {
  @ApiProperty({ description: 'The live transcript chunk.', minLength: 1, maxLength: 8000 })
  @IsText(8000)
  transcript!: string;

  @ApiPropertyOptional(
    uidProperty('The caller. Its history only; a location-bound key must own its location.'),
  )
  @IsOptional()
  @IsUid()
  contact_uid?: string;

  /** The coalescing session: chunks of one call share a sliding window. */
  @ApiPropertyOptional(uidProperty('Chunks of one call share a sliding window of words.'))
  @IsOptional()
  @IsUid()
  call_id?: string;

  @ApiPropertyOptional(
    uidProperty('Restrict history to this location (must be one of a bound key’s own).'),
  )
  @NullAsOmitted()
  @IsOptional()
  @IsUid()
  location_uid?: string;

  @ApiPropertyOptional({ minimum: 50, maximum: 5000, description: 'Hard deadline (default 800).' })
  @IsOptional()
  @IsInt()
  @Min(50)
  @Max(5000)
  timeout_ms?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, description: 'Candidates before rerank.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  pool_k?: number;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: 50,
    description:
      'Hard cap on excerpts. Unset: FINAL_K (5) distinct excerpts, then more near the best score (up to CONTEXT_MAX_EXCERPTS, 12) while the token budget holds them.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  final_k?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 32000, description: 'Excerpt token budget.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(32000)
  max_tokens?: number;

  @ApiPropertyOptional({
    format: 'date-time',
    maxLength: ASKED_AT_MAX_LENGTH,
    example: '2026-05-02T15:04:05Z',
    description:
      "When the question is asked (the call's time), years 1900–2199. Dates without a year and relative ones in the transcript ('in June', 'on the 8th of May', 'yesterday', 'last week') resolve against it for the date-filtered search of history; unset, only dates with a year do.",
  })
  @NullAsOmitted()
  @IsOptional()
  @IsString()
  @MaxLength(ASKED_AT_MAX_LENGTH)
  // A calendar date and time with a zone: week and ordinal ISO forms are no Date to JavaScript.
  @Matches(ASKED_AT_PATTERN, {
    message: 'asked_at must be a date-time between 1900 and 2199 such as 2026-05-02T15:04:05Z',
  })
  @IsISO8601({ strict: true })
  asked_at?: string;
}

/** `POST /context`'s body: a bundle request, optionally explained. */
export class ContextFetchRequestDto extends ContextRequestDto {
  @ApiPropertyOptional({
    description:
      'Also return `explain`: the whole candidate pool with every score component and why each was kept or dropped, redactions per excerpt, and a stage waterfall. Same deadline, tenant rules and redaction as the bundle.',
    default: false,
  })
  @IsOptional()
  @IsBoolean()
  explain?: boolean;

  @ApiPropertyOptional({
    description:
      'false: an interim transcript hypothesis (needs `call_id`). It is not answered with a bundle (202 with `speculation`): the service may search it ahead of the final chunk, and a final whose query matches is then served from that search (`meta.speculative`). Default true.',
    default: true,
  })
  @IsOptional()
  @IsBoolean()
  is_final?: boolean;
}

/** The 202 answer to an interim chunk (`is_final: false`). */
export class InterimAccepted {
  @ApiProperty({ enum: [true] })
  accepted!: true;

  @ApiProperty({
    enum: ['scheduled', 'rate_limited', 'disabled'],
    description:
      'scheduled: searched once stable unless a running search already covers it; rate_limited: over 20 interims a second for this call, not searched; disabled: SPECULATION=false.',
  })
  speculation!: 'scheduled' | 'rate_limited' | 'disabled';
}

/** The live contact as merged into the bundle: live fields, or why they are missing. */
export type BundleContact =
  | ({ live_fields_available: true } & Record<string, unknown>)
  | {
      live_fields_available: false;
      error?: number | 'timeout' | 'unavailable' | 'overloaded' | 'not_configured';
    };

/** OpenAPI schema of {@link BundleContact}. */
const BUNDLE_CONTACT_SCHEMA: SchemaObject = {
  oneOf: [
    {
      type: 'object',
      description: 'Live CRM fields (they always win over stored history).',
      properties: {
        live_fields_available: { type: 'boolean', enum: [true] },
        phone: { type: 'string', nullable: true },
        email: { type: 'string', nullable: true },
        opt_out_sms: { type: 'boolean', nullable: true },
        opt_out_email: { type: 'boolean', nullable: true },
        location_uid: { type: 'string', nullable: true },
        last_seen_at: { type: 'string', format: 'date-time', nullable: true },
      },
      required: ['live_fields_available'],
    },
    {
      type: 'object',
      description:
        'No live fields: 404 (unknown contact), timeout, unavailable or overloaded; not_configured when the service runs without a live CRM (PODIUM_PROVIDER=none), which is not a failure (meta.partial stays false).',
      properties: {
        live_fields_available: { type: 'boolean', enum: [false] },
        error: {
          oneOf: [
            { type: 'integer', example: 404 },
            { type: 'string', enum: ['timeout', 'unavailable', 'overloaded', 'not_configured'] },
          ],
        },
      },
      required: ['live_fields_available'],
    },
  ],
};

export class HistoricalExcerpt {
  @ApiProperty()
  id!: string;

  @ApiProperty({ description: 'A past conversation window, PII redacted.' })
  content!: string;

  @ApiProperty({ example: 'sms' })
  channel!: string;

  @ApiProperty({ format: 'date-time' })
  occurred_at!: string;

  @ApiProperty()
  rerank_score!: number;

  @ApiProperty({ description: 'Cosine similarity to the query.' })
  vector_score!: number;

  @ApiPropertyOptional({ description: 'Cut at a sentence boundary to fit the budget.' })
  truncated?: boolean;
}

export class ContextMeta {
  @ApiProperty({ description: 'The coalesced query actually searched.' })
  query!: string;

  @ApiProperty()
  elapsed_ms!: number;

  @ApiProperty()
  timeout_ms!: number;

  @ApiProperty({ description: 'A requested surface timed out or failed.' })
  partial!: boolean;

  @ApiProperty()
  had_vector_hits!: boolean;

  @ApiProperty()
  had_live_lookup!: boolean;

  @ApiProperty()
  reranked!: boolean;

  @ApiProperty({ example: 'fusion' })
  reranker!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number' },
    description: 'Milliseconds per stage.',
  })
  stages!: Record<string, number>;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: 'Redactions by entity type.',
  })
  redactions!: Record<string, number>;

  @ApiProperty()
  dropped_excerpts!: number;

  @ApiProperty({
    description:
      'The excerpts come from a search run on an interim transcript of this call, ahead of the final chunk (its query matched this one). Live fields are always looked up for this request.',
  })
  speculative!: boolean;

  @ApiProperty({
    description:
      'How old the searched history is, in ms: since the speculative search started (0 when searched for this request).',
  })
  retrieved_age_ms!: number;
}

export class ContextBundle {
  @ApiProperty({ oneOf: BUNDLE_CONTACT_SCHEMA.oneOf })
  contact!: BundleContact;

  @ApiProperty({ type: [HistoricalExcerpt] })
  historical_excerpts!: HistoricalExcerpt[];

  @ApiProperty({ description: 'Exact o200k tokens of the kept excerpts.' })
  token_count!: number;

  @ApiProperty({ type: ContextMeta })
  meta!: ContextMeta;

  @ApiPropertyOptional({
    type: [CallTurnExcerpt],
    description:
      'With `call_id`: earlier final chunks of this call that share terms with the query, best first (at most 3), redacted. They join the contact’s history when the call ends.',
  })
  call_memory?: CallTurnExcerpt[];

  @ApiPropertyOptional({ type: ContextExplain, description: 'Only with `explain: true`.' })
  explain?: ContextExplain;
}
