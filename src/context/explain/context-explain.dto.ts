import { ApiProperty } from '@nestjs/swagger';

/**
 * What became of a pool window: `kept` it leads an excerpt of the bundle; `merged` it joined
 * an overlapping excerpt (`merged_into`); `rank` every slot was taken by better excerpts;
 * `threshold` it scored below the fill margin of the best; `budget` it was chosen but the
 * token budget ran out before it.
 */
export const EXPLAIN_OUTCOMES = ['kept', 'merged', 'rank', 'threshold', 'budget'] as const;
export type ExplainOutcome = (typeof EXPLAIN_OUTCOMES)[number];

/** One pool candidate with every signal that scored it. */
export class ExplainCandidate {
  @ApiProperty()
  id!: string;

  @ApiProperty()
  conversation_uid!: string;

  @ApiProperty({ example: 'sms' })
  channel!: string;

  @ApiProperty({ format: 'date-time' })
  occurred_at!: string;

  @ApiProperty({ type: 'integer', nullable: true, description: '1-based rank in the dense list.' })
  dense_rank!: number | null;

  @ApiProperty({ description: 'Cosine similarity to the query (also for BM25-only hits).' })
  cosine!: number;

  @ApiProperty({ type: 'integer', nullable: true, description: '1-based rank in the BM25 list.' })
  bm25_rank!: number | null;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'BM25 score (null: not found by BM25).',
  })
  bm25_score!: number | null;

  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: { type: 'number', nullable: true },
    description:
      'The reranker’s score components (fusion: rank, cosine, lexical, overlap, agreement, relevance, boilerplate, recency); null when the reranker has none or did not answer.',
  })
  components!: Record<string, number | null> | null;

  @ApiProperty({
    description: 'The score the bundle orders by (rerank, or the cosine when degraded).',
  })
  score!: number;

  @ApiProperty({ enum: EXPLAIN_OUTCOMES })
  outcome!: ExplainOutcome;

  @ApiProperty({ type: 'string', nullable: true, description: 'The excerpt it was merged into.' })
  merged_into!: string | null;

  @ApiProperty({
    description: 'Its turns are in the bundle (kept, or merged into a kept excerpt).',
  })
  in_bundle!: boolean;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'The window’s text, PII redacted exactly as excerpts are; null when the deadline left no time to redact it.',
  })
  content!: string | null;
}

/** The redactions of one chosen excerpt. */
export class ExplainExcerpt {
  @ApiProperty()
  id!: string;

  @ApiProperty({ type: [String], description: 'Every pool window in the excerpt, lead first.' })
  window_ids!: string[];

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: 'Masked entities by type in this excerpt (as chosen, before the budget cut).',
  })
  redactions!: Record<string, number>;

  @ApiProperty()
  kept!: boolean;
}

/** One bar of the timing waterfall. */
export class ExplainStage {
  @ApiProperty({ example: 'embed' })
  name!: string;

  @ApiProperty({
    description: 'Start, in ms after the request arrived (derived from the stage order).',
  })
  start_ms!: number;

  @ApiProperty()
  ms!: number;

  @ApiProperty({
    enum: ['main', 'retrieval', 'live'],
    description: 'Stages in parallel lanes overlap.',
  })
  lane!: 'main' | 'retrieval' | 'live';
}

/** `explain: true`: how the bundle came to be. Redacted like the bundle; no query text. */
export class ContextExplain {
  @ApiProperty({ example: 'fusion' })
  reranker!: string;

  @ApiProperty()
  reranked!: boolean;

  @ApiProperty({ description: 'The pool size asked of each list.' })
  pool_k!: number;

  @ApiProperty({ type: [ExplainCandidate], description: 'The whole pool, best score first.' })
  candidates!: ExplainCandidate[];

  @ApiProperty({ type: [ExplainExcerpt] })
  excerpts!: ExplainExcerpt[];

  @ApiProperty({ type: [ExplainStage] })
  stages!: ExplainStage[];

  @ApiProperty({
    description: 'The deadline cut the explanation short (some texts or components missing).',
  })
  partial!: boolean;
}
