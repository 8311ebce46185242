import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyRequest } from 'fastify';

import { callerTracker } from '../auth/rate-limiter';
import { RequireScope } from '../auth/scopes';
import { RelevanceRequestDto, RelevanceResponseDto } from './relevance.dto';
import { RelevanceService } from './relevance.service';

/** The spec's `relevance_score` over HTTP. */
@ApiTags('context bridge')
@RequireScope('context:read')
@Controller('relevance')
export class RelevanceController {
  constructor(private readonly relevance: RelevanceService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Relevance of candidates to a query, in [0, 1] (relevance_score)' })
  @ApiOkResponse({ type: RelevanceResponseDto })
  score(
    @Body() body: RelevanceRequestDto,
    @Req() request: FastifyRequest,
  ): Promise<RelevanceResponseDto> {
    // Keys by name (a tenant); callers without a key by IP, as the rate limiter counts them.
    return this.relevance.score(body, callerTracker(request));
  }
}
