import { Injectable, type OnModuleInit } from '@nestjs/common';

import { type CallIdentity, CallSessions, type CallTurn } from '../context/speculative/call-sessions';
import { ConversationMemory } from '../conversations/conversation-memory.service';

/** The channel an ended call's turns are stored under. */
export const CALL_CHANNEL = 'voice';

/**
 * Where an ended call's turns go: the contact's history, as one conversation per call, through
 * the same path ingest takes (a forget's tombstone drops what was said before it; the key's
 * locations bound what it may write).
 */
@Injectable()
export class CallHistory implements OnModuleInit {
  constructor(
    private readonly sessions: CallSessions,
    private readonly memory: ConversationMemory,
  ) {}

  onModuleInit(): void {
    this.sessions.onJoin = (identity, turns) => this.join(identity, turns);
  }

  private async join(identity: CallIdentity, turns: readonly CallTurn[]): Promise<void> {
    const contactUid = identity.contactUid as string;
    await this.memory.add(
      turns.map((turn) => ({
        conversation_uid: identity.callId,
        contact_uid: contactUid,
        // A key bound to one location stores there; one bound to several must name it.
        location_uid: identity.locationUid ?? (identity.scope?.length === 1 ? identity.scope[0] : undefined),
        channel: CALL_CHANNEL,
        occurred_at: turn.at.toISOString(),
        sender: 'customer',
        text: turn.text,
      })),
      undefined,
      identity.scope,
    );
  }
}
