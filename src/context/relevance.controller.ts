import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { RelevanceRequestDto, RelevanceResponseDto } from './relevance.dto';
import { RelevanceService } from './relevance.service';

/** The spec's `relevance_score` over HTTP. */
@ApiTags('context bridge')
@Controller('relevance')
export class RelevanceController {
  constructor(private readonly relevance: RelevanceService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Relevance of candidates to a query, in [0, 1] (relevance_score)' })
  @ApiOkResponse({ type: RelevanceResponseDto })
  score(@Body() body: RelevanceRequestDto): Promise<RelevanceResponseDto> {
    return this.relevance.score(body);
  }
}
