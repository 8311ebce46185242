import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { CallerScope, type LocationScope } from '../auth/principal';
import { ConversationMemory } from './conversation-memory.service';
import { ContactHistoryParams, ForgetHistoryResponse } from './history.dto';

/** Forget on request: a contact's stored history goes, and stays gone. */
@ApiTags('history')
@Controller('contacts')
export class HistoryController {
  constructor(private readonly memory: ConversationMemory) {}

  @Delete(':contact_uid/history')
  @HttpCode(200)
  @ApiOperation({
    summary: "Forget a contact's conversation history",
    description:
      'Removes the contact’s messages and windows from every store and the live-contact cache, and writes a tombstone so that no route (a late webhook, a re-ingested export) stores those messages again; messages sent after the request are stored as usual. A location-bound key forgets only its own locations. Answers within about a second whatever the history’s size: a large history is unreadable at once and deleted in the background (`pending: true`), resumed after a restart. Idempotent.',
  })
  @ApiOkResponse({ type: ForgetHistoryResponse })
  async forget(
    @Param() params: ContactHistoryParams,
    @CallerScope() scope?: LocationScope,
  ): Promise<ForgetHistoryResponse> {
    return {
      contact_uid: params.contact_uid,
      ...(await this.memory.forgetContact(params.contact_uid, scope)),
    };
  }
}
