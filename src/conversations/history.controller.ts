import { DomainError } from '@app/common';
import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { CallerScope, type LocationScope } from '../auth/principal';
import { RequireScope } from '../auth/scopes';
import { ConversationMemory } from './conversation-memory.service';
import { ForgetGate } from './forget-gate';
import {
  ContactHistoryParams,
  ErasureReceiptDto,
  ForgetContactBody,
  ForgetHistoryResponse,
  ReceiptParams,
} from './history.dto';

/** No receipt with this id the caller may read (404). */
export class ReceiptNotFoundError extends DomainError {
  constructor() {
    super('receipt_not_found', 'No deletion receipt with this id.', 404);
  }
}

const FORGET_DESCRIPTION =
  'Removes every message of the contact stored before the request (whatever its date), every window that holds one of them, the postings and statistics derived from them, the contact’s own index, the webhook inbox’s copies and the live-contact cache, and writes a tombstone so that no route (a late webhook, a re-ingested export) stores those messages again; messages sent after the request are stored as usual. A location-bound key forgets only its own locations. Answers within about a second whatever the history’s size: a large history is unreadable at once and deleted in the background (`pending: true`), resumed after a restart. The answer carries a deletion receipt. Idempotent. A few forgets run at once per replica; a burst waits up to 2 s for a turn, then gets 429 `forget_busy` (Retry-After).';

/** Forget on request: a contact's stored history goes, and stays gone. */
@ApiTags('history')
@RequireScope('history:delete')
@Controller('contacts')
export class HistoryController {
  constructor(
    private readonly memory: ConversationMemory,
    private readonly gate: ForgetGate,
  ) {}

  @Post('forget')
  @HttpCode(200)
  @ApiOperation({
    summary: "Forget a contact's conversation history (the id in the body)",
    description: `${FORGET_DESCRIPTION} Prefer this route: the id never appears in a URL.`,
  })
  @ApiOkResponse({ type: ForgetHistoryResponse })
  forgetByBody(
    @Body() body: ForgetContactBody,
    @CallerScope() scope?: LocationScope,
  ): Promise<ForgetHistoryResponse> {
    return this.forgetContact(body.contact_uid, scope);
  }

  @Delete(':contact_uid/history')
  @HttpCode(200)
  @ApiOperation({
    summary: "Forget a contact's conversation history",
    description: FORGET_DESCRIPTION,
  })
  @ApiOkResponse({ type: ForgetHistoryResponse })
  forget(
    @Param() params: ContactHistoryParams,
    @CallerScope() scope?: LocationScope,
  ): Promise<ForgetHistoryResponse> {
    return this.forgetContact(params.contact_uid, scope);
  }

  @Get('forget/receipts/:receipt_id')
  @ApiOperation({
    summary: 'A deletion receipt: when each derived store was cleared',
    description:
      'Messages, windows, postings and statistics, the contact’s own index, vector points (Qdrant), webhook payloads and caches, each with the time it was cleared. A location-bound key reads only receipts of forgets within its locations.',
  })
  @ApiOkResponse({ type: ErasureReceiptDto })
  async receipt(
    @Param() params: ReceiptParams,
    @CallerScope() scope?: LocationScope,
  ): Promise<ErasureReceiptDto> {
    const receipt = await this.memory.receipt(params.receipt_id);
    const visible =
      receipt && (!scope || (receipt.location_uids?.every((l) => scope.includes(l)) ?? false));
    if (!visible) {
      throw new ReceiptNotFoundError();
    }
    return receipt;
  }

  private async forgetContact(
    contactUid: string,
    scope: LocationScope,
  ): Promise<ForgetHistoryResponse> {
    // Admitted per process (ForgetGate): a burst of forgets waits or gets 429 `forget_busy`;
    // a location-bound key holds at most its share, so it cannot starve another tenant's.
    const report = await this.gate.run(
      () => this.memory.forgetContact(contactUid, scope),
      scope?.join(','),
    );
    return { contact_uid: contactUid, ...report };
  }
}
