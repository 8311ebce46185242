import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyRequest } from 'fastify';

import { CallerScope, type LocationScope } from '../auth/principal';
import { callerTracker } from '../auth/rate-limiter';
import { RequireScope } from '../auth/scopes';
import { scopedLocations } from '../auth/tenant';
import { ArrivedAt } from '../common/arrival';
import { CallSessions } from '../context/speculative/call-sessions';
import { CallOpeningService } from './call-opening.service';
import { CallEnded, CallOpening, CallRefDto, CallStartDto } from './calls.dto';

/** A live call's lifetime: prefetch when it rings, end when it hangs up. */
@ApiTags('context bridge')
@RequireScope('context:read')
@Controller('calls')
export class CallsController {
  constructor(
    private readonly opening: CallOpeningService,
    private readonly sessions: CallSessions,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'The call is ringing: track it, warm its caches, get an opening bundle',
    description:
      'Resolves the live contact (warming its cache), lists its newest messages (redacted) within `timeout_ms` (default 300), and warms the contact’s history search in the background, so the first /context of the call costs what a later one does. Same auth, tenant binding and redaction as /context. 429 `too_many_calls` past CALLS_MAX_PER_CALLER or CALLS_MAX live calls. A call idle for CALLS_IDLE_MS ends on its own.',
  })
  @ApiOkResponse({ type: CallOpening })
  open(
    @Body() body: CallStartDto,
    @ArrivedAt() arrivedAt: number,
    @Req() request: FastifyRequest,
    @CallerScope() scope?: LocationScope,
  ): Promise<CallOpening> {
    return this.opening.open(body, scope, callerTracker(request), arrivedAt);
  }

  @Post('end')
  @HttpCode(200)
  @ApiOperation({
    summary: 'The call ended: its final turns join the contact’s history',
    description:
      'Drops the call’s state (speculation, its own memory) and stores its final /context chunks as one `voice` conversation of the contact, redacted, through the ingest path (a forget during the call drops what was said before it). Idempotent.',
  })
  @ApiOkResponse({ type: CallEnded })
  async end(
    @Body() body: CallRefDto,
    @Req() request: FastifyRequest,
    @CallerScope() scope?: LocationScope,
  ): Promise<CallEnded> {
    scopedLocations(scope, body.location_uid); // 403 for a location outside the key's binding
    const session = await this.sessions.end({
      caller: callerTracker(request),
      callId: body.call_id,
      contactUid: body.contact_uid,
      locationUid: body.location_uid,
      scope,
    });
    return { ended: session !== undefined, joined_turns: session?.turns.length ?? 0 };
  }
}
