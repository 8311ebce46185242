import { InvalidInputError } from '@app/common';
import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { CallerScope, type LocationScope } from '../../auth/principal';
import { RequireScope } from '../../auth/scopes';
import { ArrivedAt } from '../../common/arrival';
import { ContextService } from '../../context/context.service';
import { toLocationFilter, toSearchPage } from './vector-store-mapping';
import {
  VectorStorePathDto,
  VectorStoreSearchPageDto,
  VectorStoreSearchRequestDto,
} from './vector-store-search.dto';

/** Matches ContextRequestDto's transcript limit. */
const MAX_QUERY_CHARS = 8000;

/**
 * OpenAI's vector-store search shape over `ContextService`, so any client that speaks it
 * (the `openai` SDK's `vectorStores.search`, agent frameworks' file-search tools) can point
 * at us by base URL: the vector store id is the `contact_uid`. Same deadline, scoping,
 * redaction and metrics as `POST /context`; a missed deadline is an empty page, on time.
 */
@ApiTags('adapters')
@RequireScope('search:read')
@Controller('v1/vector_stores')
export class VectorStoresController {
  constructor(private readonly context: ContextService) {}

  @Post(':contact_uid/search')
  @HttpCode(200)
  @ApiOperation({
    summary: 'OpenAI-compatible vector store search over one contact’s history',
    description:
      'Point an OpenAI client at `<bridge>/v1` and use the contact_uid as the vector_store_id. Results are the reranked, redacted excerpts of `POST /context`.',
  })
  @ApiOkResponse({ type: VectorStoreSearchPageDto })
  async search(
    @Param() path: VectorStorePathDto,
    @Body() body: VectorStoreSearchRequestDto,
    @ArrivedAt() arrivedAt: number,
    @CallerScope() scope?: LocationScope,
  ): Promise<VectorStoreSearchPageDto> {
    const queries = Array.isArray(body.query) ? body.query : [body.query];
    const transcript = queries.join('\n');
    if (queries.length === 0 || transcript.length > MAX_QUERY_CHARS) {
      throw new InvalidInputError(
        'validation_failed',
        `query must be 1 to ${MAX_QUERY_CHARS} characters in all.`,
      );
    }
    const bundle = await this.context.build(
      {
        transcript,
        contact_uid: path.contact_uid,
        location_uid: toLocationFilter(body.filters),
        ...(body.max_num_results ? { final_k: body.max_num_results } : {}),
      },
      scope,
      arrivedAt,
    );
    return toSearchPage(bundle, path.contact_uid, queries, body.ranking_options?.score_threshold);
  }
}
