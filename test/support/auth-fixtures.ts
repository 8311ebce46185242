import { Body, Controller, HttpCode, Module, Post, UseGuards } from '@nestjs/common';
import { IsString } from 'class-validator';

import { ChatIdentityGuard } from '../../src/auth/chat-identity.guard';
import { Public } from '../../src/auth/public.decorator';

/** Fixtures of test/auth.e2e-spec.ts. */

/** Stands in for POST /chat: public for API keys, guarded by CHAT_AUTH like the real one. */
class ProbeChatDto {
  @IsString()
  userId!: string;
}
@Public()
@Controller('chat-probe')
class ChatProbeController {
  @Post()
  @HttpCode(200)
  @UseGuards(ChatIdentityGuard)
  ask(@Body() body: ProbeChatDto) {
    return { userId: body.userId };
  }
}
@Module({ controllers: [ChatProbeController] })
export class ChatProbeModule {}

export const message = (
  contact: string,
  location: string | undefined,
  minute: number,
  text: string,
) => ({
  conversation_uid: `conv_${contact}`,
  contact_uid: contact,
  ...(location ? { location_uid: location } : {}),
  channel: 'sms',
  occurred_at: new Date(Date.UTC(2026, 0, 5, 10, minute)).toISOString(),
  sender: minute % 2 ? 'agent' : 'customer',
  text,
});

export const HISTORY = [
  message('ctc_a1', 'loc_a', 0, 'My espresso machine leaks water from the boiler.'),
  message('ctc_a1', 'loc_a', 1, 'We will send a gasket kit for the espresso machine.'),
  message('ctc_b1', 'loc_b', 0, 'B-SECRET my espresso machine leaks water everywhere.'),
  message('ctc_b1', 'loc_b', 1, 'B-SECRET a technician visits your espresso machine Monday.'),
  // Known to no CRM: only the store's location filter keeps it from tenant A.
  message('ctc_ghost', 'loc_b', 0, 'B-SECRET ghost contact espresso machine leaking water.'),
];
