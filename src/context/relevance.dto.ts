import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
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
