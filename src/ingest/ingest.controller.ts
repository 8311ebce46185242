import { InvalidInputError } from '@app/common';
import { Body, Controller, Headers, HttpCode, Inject, Post } from '@nestjs/common';
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
import { assertRecordsInScope, assertUnbound } from '../auth/tenant';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ConversationMessageDto, type IngestFailure, IngestReport, KbTopicDto } from './ingest.dto';
import { IngestService } from './ingest.service';
import { parseNdjson } from './record-validation';

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
 * line is one record; records are validated one by one inside the service. Admission
 * (auth before the body is read, INGEST_MAX_INFLIGHT) happens earlier, in ingest-admission.
 */
@ApiTags('ingestion')
@ApiExtraModels(ConversationMessageDto, KbTopicDto)
@ApiConsumes('application/json', 'application/x-ndjson')
@Controller('ingest')
export class IngestController {
  constructor(
    private readonly ingest: IngestService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('conversations')
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
    const { records, failed } = this.toRecords(body, type);
    assertRecordsInScope(scope, records);
    return this.ingest.ingestConversations(records, failed);
  }

  @Post('kb')
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
    assertUnbound(scope, 'the shared knowledge base');
    const { records, failed } = this.toRecords(body, type);
    return this.ingest.ingestKb(records, failed);
  }

  private toRecords(body: unknown, type?: string): { records: unknown[]; failed: IngestFailure[] } {
    const parsed =
      type?.startsWith('application/x-ndjson') && typeof body === 'string'
        ? parseNdjson(body)
        : { records: Array.isArray(body) ? body : [body], failed: [] };
    if (body === undefined || body === null || parsed.records.length === 0) {
      throw new InvalidInputError('empty_batch', 'The body holds no records.');
    }
    if (parsed.records.length > this.config.ingest.maxRecords) {
      throw new InvalidInputError(
        'too_many_records',
        `At most ${this.config.ingest.maxRecords} records per request; split the file or use the CLI.`,
      );
    }
    return parsed;
  }
}
