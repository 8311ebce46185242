import { InvalidInputError } from '@app/common';
import { RedactionOffloadService } from '@app/redaction';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';

import { RequireScope } from '../auth/scopes';
import { MAX_REDACT_TEXT_LENGTH, RedactRequestDto, RedactResponse } from './redact.dto';

/** Redaction as a service: the same filter retrieval applies to historical excerpts. */
@RequireScope('context:read')
@Controller('redact')
export class RedactController {
  constructor(private readonly redaction: RedactionOffloadService) {}

  /**
   * Masks PII in `text`. Answers 200 (nothing is created). A non-string `text` fails
   * validation (`validation_failed`); a text over {@link MAX_REDACT_TEXT_LENGTH} is
   * rejected with `text_too_large` before any scanning. Large texts are redacted on a
   * low-priority worker thread; when its queue is full the answer is 503 `redaction_busy`.
   */
  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Mask PII in a text' })
  @ApiOkResponse({ type: RedactResponse })
  async redact(@Body() body: RedactRequestDto): Promise<RedactResponse> {
    if (body.text.length > MAX_REDACT_TEXT_LENGTH) {
      throw new InvalidInputError(
        'text_too_large',
        `text is ${body.text.length} characters; the limit is ${MAX_REDACT_TEXT_LENGTH}.`,
        { length: body.text.length, limit: MAX_REDACT_TEXT_LENGTH },
      );
    }
    // Below live requests: a flood of large texts waits on its own niced worker (and queue).
    return this.redaction.redact(body.text, 'background');
  }
}
