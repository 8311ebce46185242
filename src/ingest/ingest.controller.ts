import { Body, Controller, Headers, HttpCode, Post, UseInterceptors } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';

import { CallerScope, type LocationScope } from '../auth/principal';
import { RequireScope } from '../auth/scopes';
import { type BodyRouteConfig } from '../common/body-parsers';
import { ConversationMessageDto, IngestReport, KbTopicDto } from './ingest.dto';
import { IngestService } from './ingest.service';
import { IngestSlotInterceptor } from './ingest-slot';

/** The body parsers take NDJSON on these routes only (elsewhere it is a 415). */
const NDJSON_ROUTE: BodyRouteConfig = { ndjson: true };

/** A JSON array of `model`, one object, or NDJSON lines of it. */
const batchBody = (model: string, what: string) => ({
  description: `${what}: a JSON array, a single object, or NDJSON (one object per line). Each record is validated on its own; bad ones are reported by index.`,
  schema: {
    oneOf: [
      { type: 'array', items: { $ref: getSchemaPath(model) } },
      { $ref: getSchemaPath(model) },
    ],
  },
});

/**
 * Bulk ingestion. Bodies are a JSON array, or NDJSON (`application/x-ndjson`) where each
 * line is one record; the service parses them, applies the caller's location scope and
 * validates records one by one. Admission (auth before the body is read,
 * INGEST_MAX_INFLIGHT) happens earlier, in ingest-admission; the admitted slot is held until
 * the handler's work settles (IngestSlotInterceptor), not merely until the caller hangs up.
 */
@ApiTags('ingestion')
@UseInterceptors(IngestSlotInterceptor)
@ApiExtraModels(ConversationMessageDto, KbTopicDto)
@ApiConsumes('application/json', 'application/x-ndjson')
@RequireScope('ingest:write')
@Controller('ingest')
export class IngestController {
  constructor(private readonly ingest: IngestService) {}

  @Post('conversations')
  @RouteConfig(NDJSON_ROUTE)
  @HttpCode(200)
  @ApiOperation({
    summary: 'Ingest conversation messages (chunked into windows, redacted, embedded)',
    description:
      'Idempotent by content hash. A location-bound key may only send records carrying one of its location_uids (else 403 `location_forbidden`, nothing stored).',
  })
  @ApiBody(batchBody('ConversationMessageDto', 'Conversation messages'))
  @ApiOkResponse({ type: IngestReport })
  conversations(
    @Body() body: unknown,
    @Headers('content-type') type?: string,
    @CallerScope() scope?: LocationScope,
  ): Promise<IngestReport> {
    return this.ingest.ingestConversationsBody({ body, contentType: type }, scope);
  }

  @Post('kb')
  @RouteConfig(NDJSON_ROUTE)
  @HttpCode(200)
  @ApiOperation({
    summary: 'Ingest knowledge-base topics for R42 chat (chunks + summary, replaced per topic)',
    description: 'The knowledge base is shared: a location-bound key gets 403.',
  })
  @ApiBody(batchBody('KbTopicDto', 'KB topics'))
  @ApiOkResponse({ type: IngestReport })
  kb(
    @Body() body: unknown,
    @Headers('content-type') type?: string,
    @CallerScope() scope?: LocationScope,
  ): Promise<IngestReport> {
    return this.ingest.ingestKbBody({ body, contentType: type }, scope);
  }
}
