import { DomainError } from '@app/common';
import { Body, Controller, HttpCode, Inject, Logger, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyRequest } from 'fastify';

import { CallerScope, type LocationScope } from '../../auth/principal';
import { Public } from '../../auth/public.decorator';
import { callerTracker } from '../../auth/rate-limiter';
import { RequireScope } from '../../auth/scopes';
import { ArrivedAt } from '../../common/arrival';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { ContextService } from '../../context/context.service';
import { type TelemetryIds, telemetryIds } from '../../tracing/telemetry-ids';
import { VAPI_SECRET_HEADER, VapiAuthGuard } from './vapi-auth.guard';
import { parseVapiRequest, toVapiDocuments } from './vapi-mapping';
import { VapiKnowledgeBaseResponseDto, VapiServerMessageDto } from './vapi-request.dto';

const NO_DOCUMENTS = (): VapiKnowledgeBaseResponseDto => ({ documents: [] });

/**
 * Vapi's custom knowledge base (`assistant.knowledgeBase.provider = custom-knowledge-base`):
 * a thin mapping over `ContextService`, so the deadline, tenant scoping, redaction and
 * metrics are those of `POST /context`. Past authentication it never answers an error:
 * a bad body, a refused contact or a failure all give 200 `{ documents: [] }`, and the
 * assistant simply answers without our context (Vapi's guidance).
 */
@ApiTags('adapters')
@Public() // admitted by VapiAuthGuard: a Vapi secret or an API key, each with its locations
@UseGuards(VapiAuthGuard)
@RequireScope('context:read')
@Controller('adapters/vapi')
export class VapiController {
  private readonly logger = new Logger(VapiController.name);

  /** Contact ids in the documents Vapi logs: keyed hashes, as in our own telemetry. */
  private readonly ids: TelemetryIds;

  constructor(
    private readonly context: ContextService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ids = telemetryIds(config.telemetry.hashKey);
  }

  @Post('knowledge-base')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Vapi custom knowledge base: the context bundle as Vapi documents',
    description:
      "Auth: `X-Vapi-Secret` (one of VAPI_SECRETS, scoped to that secret's locations) or an API key as `Authorization: Bearer` (scoped to the key's). `contact_uid` is `customer.externalId`, else `customer.number`, else `call.customer.number`; a call with none of them (caller ID withheld) gets no documents. The transcript is the trailing user turns of `messagesOpenAIFormatted` (else `messages`). The live contact document never carries phone or e-mail: caller ID can be spoofed. Anything but an auth failure answers 200; `{ documents: [] }` when the body is unusable, the caller is unidentified, the deadline ran out or a dependency failed.",
  })
  @ApiHeader({ name: VAPI_SECRET_HEADER, required: false, description: 'Vapi server secret' })
  @ApiBody({ type: VapiServerMessageDto })
  @ApiOkResponse({ type: VapiKnowledgeBaseResponseDto })
  async knowledgeBase(
    // Not a DTO parameter: the global pipe would 400 on Vapi's many extra fields.
    @Body() body: unknown,
    @ArrivedAt() arrivedAt: number,
    @Req() request: FastifyRequest,
    @CallerScope() scope?: LocationScope,
  ): Promise<VapiKnowledgeBaseResponseDto> {
    const parsed = parseVapiRequest(body);
    if (!parsed.ok) {
      // Field paths and rule names only: values would be customer text.
      this.logger.warn(
        `Vapi knowledge-base request ignored (${parsed.reason}${parsed.fields.length ? `: ${parsed.fields.join(' ')}` : ''}); answering no documents`,
      );
      return NO_DOCUMENTS();
    }
    // No caller identity (caller ID withheld, no externalId): no history at all. Searching
    // without a contact would read every customer of the secret's locations to a stranger.
    if (parsed.request.contact_uid === undefined) {
      this.logger.log(
        'Vapi knowledge-base request without a caller identity; answering no documents',
      );
      return NO_DOCUMENTS();
    }
    try {
      const bundle = await this.context.build(parsed.request, scope, arrivedAt, callerTracker(request));
      const contactUid = parsed.request.contact_uid;
      return { documents: toVapiDocuments(bundle, contactUid && this.ids.id(contactUid)) };
    } catch (error) {
      const code = error instanceof DomainError ? error.code : (error as Error).name;
      this.logger.warn(`Vapi knowledge-base request failed (${code}); answering no documents`);
      return NO_DOCUMENTS();
    }
  }
}
