import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';

import { CallerScope, type LocationScope } from '../auth/principal';
import { RequireScope } from '../auth/scopes';
import { clientGone } from '../common/client-gone';
import { SearchRequestDto, SearchResponseDto } from './search.dto';
import { SearchService } from './search.service';

@ApiTags('context bridge')
@RequireScope('search:read')
@Controller('search')
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Nearest conversation chunks with cosine scores (the spec’s vector_query)',
  })
  @ApiOkResponse({ type: SearchResponseDto })
  run(
    @Body() body: SearchRequestDto,
    @Res({ passthrough: true }) reply: FastifyReply,
    @CallerScope() scope?: LocationScope,
  ): Promise<SearchResponseDto> {
    return this.search.search(body, scope, clientGone(reply));
  }
}
