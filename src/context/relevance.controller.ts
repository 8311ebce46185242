import { EmbeddingService } from '@app/embedding';
import { InvalidInputError } from '@app/common';
import { RERANKER, type Reranker } from '@app/rerank';
import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
} from 'class-validator';

export class RelevanceRequestDto {
  @ApiProperty({ maxLength: 8000 })
  @IsString()
  @Matches(/\S/)
  @MaxLength(8000)
  query!: string;

  @ApiPropertyOptional({ maxLength: 20000, description: 'Exactly one of candidate or candidates.' })
  @IsOptional()
  @IsString()
  @Matches(/\S/)
  @MaxLength(20000)
  candidate?: string;

  @ApiPropertyOptional({ type: [String], minItems: 1, maxItems: 100 })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @Matches(/\S/, { each: true })
  @MaxLength(20000, { each: true })
  candidates?: string[];
}

export class RelevanceResponseDto {
  @ApiProperty()
  query!: string;

  @ApiProperty({ example: 'fusion' })
  reranker!: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'When `candidate` was given.' })
  score?: number;

  @ApiProperty({ type: [Number], description: 'One per candidate, in [0, 1], input order.' })
  scores!: number[];
}

function dot(a: number[], b: number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    s += a[i] * b[i];
  }
  return s;
}

const cosine = (a: number[], b: number[]) => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));

/** The spec's `relevance_score`: how relevant is each candidate to the query, in [0, 1]. */
@ApiTags('context bridge')
@Controller('relevance')
export class RelevanceController {
  constructor(
    private readonly embedding: EmbeddingService,
    @Inject(RERANKER) private readonly reranker: Reranker,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Relevance of candidates to a query, in [0, 1] (relevance_score)' })
  @ApiOkResponse({ type: RelevanceResponseDto })
  async score(@Body() body: RelevanceRequestDto): Promise<RelevanceResponseDto> {
    const texts = body.candidates ?? (body.candidate !== undefined ? [body.candidate] : []);
    if (texts.length === 0 || (body.candidate !== undefined && body.candidates !== undefined)) {
      throw new InvalidInputError(
        'invalid_candidates',
        'Give exactly one of `candidate` or `candidates`.',
      );
    }
    const [query, vectors] = await Promise.all([
      this.embedding.embedQuery(body.query),
      this.embedding.embedDocuments(texts),
    ]);
    const candidates = texts.map((content, i) => ({
      id: String(i),
      content,
      denseScore: cosine(query, vectors[i]),
    }));
    const scores = await this.reranker.score(body.query, candidates);
    const rounded = scores.map((s) => Number(s.toFixed(6)));
    return {
      query: body.query,
      reranker: this.reranker.name,
      ...(body.candidate !== undefined ? { score: rounded[0] } : {}),
      scores: rounded,
    };
  }
}
