import { Database } from '@app/database';
import { Injectable } from '@nestjs/common';

/** A stored message, as the opening bundle lists it. */
export interface StoredRecent {
  channel: string;
  occurred_at: string;
  sender: string;
  text: string;
}

/**
 * A contact's newest stored messages, inside the caller's locations, never one a forget
 * covers (the rule `ConversationMessagesRepository.load` applies). Stored text is redacted.
 */
@Injectable()
export class RecentMessages {
  constructor(private readonly database: Database) {}

  async latest(
    contactUid: string,
    locations: readonly string[] | undefined,
    limit: number,
  ): Promise<StoredRecent[]> {
    // Raw: NOT EXISTS over the tombstones, as load() does.
    const rows = await this.database.query<StoredRecent & { occurred_at: Date | string }>(
      `SELECT m.channel, m.occurred_at, m.sender, m.text FROM conversation_messages m
       WHERE m.contact_uid = $1
         AND ($2::text[] IS NULL OR m.location_uid = ANY($2::text[]))
         AND NOT EXISTS (SELECT 1 FROM history_tombstones h
           WHERE h.purged_at IS NULL AND h.contact_uid = m.contact_uid
             AND h.location_uid IN ('', m.location_uid) AND m.stored_at <= h.stored_before)
       ORDER BY m.occurred_at DESC LIMIT $3`,
      [contactUid, locations ? [...locations] : null, limit],
    );
    return rows.map((r) => ({ ...r, occurred_at: new Date(r.occurred_at).toISOString() }));
  }
}
