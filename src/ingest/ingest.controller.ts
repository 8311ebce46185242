import { InvalidInputError } from '@app/common';
import { Body, Controller, Headers, HttpCode, Inject, Post } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { type IngestFailure, type IngestReport } from './ingest.dto';
import { IngestService } from './ingest.service';
import { parseNdjson } from './record-validation';

/**
 * Bulk ingestion. Bodies are a JSON array, or NDJSON (`application/x-ndjson`) where each
 * line is one record; records are validated one by one inside the service.
 */
@Controller('ingest')
export class IngestController {
  constructor(
    private readonly ingest: IngestService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('conversations')
  @HttpCode(200)
  conversations(
    @Body() body: unknown,
    @Headers('content-type') type?: string,
  ): Promise<IngestReport> {
    const { records, failed } = this.toRecords(body, type);
    return this.ingest.ingestConversations(records, failed);
  }

  @Post('kb')
  @HttpCode(200)
  kb(@Body() body: unknown, @Headers('content-type') type?: string): Promise<IngestReport> {
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
