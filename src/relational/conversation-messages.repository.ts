import {
  ConversationMessageEntity,
  ConversationWindowEntity,
  Database,
  withDatabaseScope,
} from '@app/database';
import { type ConversationKey } from '@app/vector';
import { Injectable } from '@nestjs/common';

import { MessageOwnedElsewhereError } from '../auth/auth.errors';
import { DELETE_BATCH } from './erasure-work';

/** One message as stored: redacted, with its stable id. */
export interface StoredMessage {
  /** Podium's message uid when there is one, else `turn_key`. */
  message_id: string;
  /** Hash of conversation, time, sender and text. */
  turn_key: string;
  conversation_uid: string;
  contact_uid: string;
  location_uid: string | null;
  channel: string;
  /** ISO-8601. */
  occurred_at: string;
  sender: string;
  text: string;
}

const COLUMNS = [
  ['message_id', 'text'],
  ['turn_key', 'text'],
  ['conversation_uid', 'text'],
  ['contact_uid', 'text'],
  ['location_uid', 'text'],
  ['channel', 'text'],
  ['occurred_at', 'timestamptz'],
  ['sender', 'text'],
  ['text', 'text'],
] as const;

const keyArrays = (keys: readonly ConversationKey[]) => [
  keys.map((k) => k.contact_uid),
  keys.map((k) => k.conversation_uid),
];

/**
 * The relational half of conversation memory: messages (the source of truth) and the ledger
 * of windows derived from them; forget requests are `HistoryTombstones`'. Every statement is
 * set-based, so a bulk ingest costs a few round trips per group of conversations, not per
 * message.
 */
@Injectable()
export class ConversationMessagesRepository {
  constructor(private readonly database: Database) {}

  /**
   * Stores each message once. A message met before under its other id (with and without a
   * Podium uid) keeps its stored id; a known message may correct its location and channel.
   *
   * `scope`: a location-bound caller's locations. Such a caller never relabels a message
   * stored under a location outside them (another tenant's, or none): the whole batch is
   * refused with 409 `message_owned_elsewhere`. Callers hold the contact's lock, and a
   * relabel needs the same contact, so the check and the write see the same rows; the
   * upsert's own condition enforces it again.
   */
  async save(messages: readonly StoredMessage[], scope?: readonly string[]): Promise<void> {
    if (messages.length === 0) {
      return;
    }
    // Raw: the batch's turns as two array parameters, looked up by conversation (one index
    // entry each, migration 20), then key among its rows, which the rebuild after reads anyway.
    const turns = [...new Map(messages.map((m) => [m.turn_key, m.conversation_uid]))];
    const known = await this.database.query<{ message_id: string; turn_key: string }>(
      `SELECT m.message_id, m.turn_key FROM conversation_messages m
       JOIN unnest($1::text[], $2::text[]) AS t(conversation, turn_key)
         ON m.conversation_uid = t.conversation AND m.turn_key = t.turn_key`,
      [turns.map(([, conversation]) => conversation), turns.map(([turnKey]) => turnKey)],
    );
    // Only a uid-less row aliases: two messages with distinct uids stay two messages.
    const aliasOf = new Map(
      known.filter((k) => k.message_id === k.turn_key).map((k) => [k.turn_key, k.message_id]),
    );
    // A uid-less message adopts the uid its turn has, stored or in this same batch.
    const uidOf = new Map(
      [...known, ...messages]
        .filter((k) => k.message_id !== k.turn_key)
        .map((k) => [k.turn_key, k.message_id]),
    );
    const rows = new Map<string, StoredMessage>();
    for (const m of messages) {
      const hashOnly = m.message_id === m.turn_key;
      const id = aliasOf.get(m.turn_key) ?? (hashOnly ? uidOf.get(m.turn_key) : undefined);
      rows.set(id ?? m.message_id, { ...m, message_id: id ?? m.message_id });
    }
    const list = [...rows.values()];
    if (scope) {
      await this.assertOwned(list, scope);
    }
    // Raw: an unnest() bulk insert with a conditional ON CONFLICT … DO UPDATE … WHERE.
    await this.database.execute(
      `INSERT INTO conversation_messages (${COLUMNS.map(([n]) => n).join(', ')})
       SELECT * FROM unnest(${COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})
       ON CONFLICT (message_id) DO UPDATE
         SET location_uid = EXCLUDED.location_uid, channel = EXCLUDED.channel
         WHERE conversation_messages.contact_uid = EXCLUDED.contact_uid
           AND conversation_messages.conversation_uid = EXCLUDED.conversation_uid
           AND (conversation_messages.location_uid IS DISTINCT FROM EXCLUDED.location_uid
             OR conversation_messages.channel <> EXCLUDED.channel)
           AND ($${COLUMNS.length + 1}::text[] IS NULL
             OR conversation_messages.location_uid = ANY($${COLUMNS.length + 1}::text[]))`,
      [...COLUMNS.map(([name]) => list.map((m) => m[name])), scope ? [...scope] : null],
    );
  }

  /**
   * 409 when any of these ids is stored under a location outside `scope` (or under none).
   * Asked as the service itself: row-level security hides exactly those rows from the caller,
   * and the answer is a count, never a row.
   */
  private async assertOwned(list: readonly StoredMessage[], scope: readonly string[]) {
    // Raw: ANY() over the batch's ids, answered from the primary key.
    const [{ n }] = await withDatabaseScope({ kind: 'every' }, () =>
      this.database.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM conversation_messages
         WHERE message_id = ANY($1::text[])
           AND (location_uid IS NULL OR NOT (location_uid = ANY($2::text[])))`,
        [list.map((m) => m.message_id), [...scope]],
      ),
    );
    if (n > 0) {
      throw new MessageOwnedElsewhereError(n);
    }
  }

  async load(keys: readonly ConversationKey[]): Promise<StoredMessage[]> {
    // A forget's messages stay stored until its purge has deleted them: never load them.
    // Covered by membership (stored before the forget), whatever the message's own date.
    // Raw: a join on the unnest()ed key pairs, and NOT EXISTS over the forget tombstones.
    const rows = await this.database.query<StoredMessage & { occurred_at: Date | string }>(
      `SELECT m.* FROM conversation_messages m
       JOIN unnest($1::text[], $2::text[]) AS k(contact, conversation)
         ON m.contact_uid = k.contact AND m.conversation_uid = k.conversation
       WHERE NOT EXISTS (SELECT 1 FROM history_tombstones h
         WHERE h.purged_at IS NULL AND h.contact_uid = m.contact_uid
           AND h.location_uid IN ('', m.location_uid) AND m.stored_at <= h.stored_before)`,
      keyArrays(keys),
    );
    return rows.map((r) => ({ ...r, occurred_at: new Date(r.occurred_at).toISOString() }));
  }

  /** Every conversation with stored messages (reindex). */
  async conversations(): Promise<ConversationKey[]> {
    return this.database.dataSource
      .getRepository(ConversationMessageEntity)
      .createQueryBuilder('m')
      .select('m.contactUid', 'contact_uid')
      .addSelect('m.conversationUid', 'conversation_uid')
      .distinct(true)
      .orderBy('m.contactUid')
      .addOrderBy('m.conversationUid')
      .getRawMany<ConversationKey>();
  }

  /** Ids of the windows derived for these conversations. */
  async windowIds(keys: readonly ConversationKey[]): Promise<string[]> {
    // Raw: a join on the unnest()ed key pairs, one statement for any number of them.
    const rows = await this.database.query<{ window_id: string }>(
      `SELECT w.window_id FROM conversation_windows w
       JOIN unnest($1::text[], $2::text[]) AS k(contact, conversation)
         ON w.contact_uid = k.contact AND w.conversation_uid = k.conversation`,
      keyArrays(keys),
    );
    return rows.map((r) => r.window_id);
  }

  async recordWindows(windows: ReadonlyArray<ConversationKey & { id: string }>): Promise<void> {
    if (windows.length) {
      // Raw: an unnest() bulk insert.
      await this.database.execute(
        `INSERT INTO conversation_windows (window_id, contact_uid, conversation_uid)
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING`,
        [windows.map((w) => w.id), ...keyArrays(windows)],
      );
    }
  }

  async dropWindows(ids: readonly string[]): Promise<void> {
    if (ids.length) {
      await this.database.dataSource
        .getRepository(ConversationWindowEntity)
        .createQueryBuilder()
        .delete()
        // One array parameter, however many windows a rebuild drops.
        .where('window_id = ANY(CAST(:ids AS uuid[]))', { ids: [...ids] })
        .execute();
    }
  }

  /** The conversations of a contact, from the window ledger and the messages. */
  async contactConversations(contactUid: string): Promise<ConversationKey[]> {
    // Raw: a UNION of two tables, which the query builder does not express.
    return this.database.query<ConversationKey>(
      `SELECT contact_uid, conversation_uid FROM conversation_windows WHERE contact_uid = $1
       UNION SELECT contact_uid, conversation_uid FROM conversation_messages WHERE contact_uid = $1`,
      [contactUid],
    );
  }

  /**
   * The window ledger of a contact's conversations that no longer have a message (their
   * windows were removed by contact), in batches; a conversation that goes on after a forget
   * keeps its ledger.
   */
  async dropContactWindows(contactUid: string): Promise<void> {
    for (;;) {
      // Raw: a bounded DELETE … = ANY(ARRAY(SELECT … LIMIT)) with a NOT EXISTS.
      const removed = await this.database.execute(
        `DELETE FROM conversation_windows WHERE window_id = ANY(ARRAY(
           SELECT w.window_id FROM conversation_windows w WHERE w.contact_uid = $1
             AND NOT EXISTS (SELECT 1 FROM conversation_messages m
               WHERE m.contact_uid = w.contact_uid AND m.conversation_uid = w.conversation_uid)
           LIMIT $2))`,
        [contactUid, DELETE_BATCH],
      );
      if (removed < DELETE_BATCH) {
        return;
      }
    }
  }
}

export function uniqueKeys(keys: readonly ConversationKey[]): ConversationKey[] {
  const byKey = new Map(keys.map((k) => [`${k.contact_uid}\u001f${k.conversation_uid}`, k]));
  return [...byKey.values()].map(({ contact_uid, conversation_uid }) => ({
    contact_uid,
    conversation_uid,
  }));
}
