import { ConversationMessageEntity, ConversationWindowEntity, Database } from '@app/database';
import { type ConversationKey } from '@app/vector';
import { Injectable } from '@nestjs/common';

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

/** A stored turn: its id, and its location ('' for none). */
interface KnownTurn {
  message_id: string;
  turn_key: string;
  location: string;
}

const at = (turnKey: string, location: string | null) => `${location ?? ''}\u001f${turnKey}`;

/**
 * The id each message is stored under. Only a uid-less row aliases: two messages with
 * distinct uids stay two messages; a uid-less message adopts the uid its turn has, stored or
 * in this same batch. Rows of the message's own location count first; an unbound write
 * (`elsewhere`) falls back to its turn stored under another location, which it relocates.
 */
function resolveIds(
  messages: readonly StoredMessage[],
  known: readonly KnownTurn[],
  elsewhere: boolean,
): StoredMessage[] {
  const uidLess = (k: { message_id: string; turn_key: string }) => k.message_id === k.turn_key;
  const byKey = <T>(entries: Array<[string, T]>) => new Map(entries);
  const ownTurns = new Set(known.map((k) => at(k.turn_key, k.location)));
  const ownAlias = byKey(
    known.filter(uidLess).map((k) => [at(k.turn_key, k.location), k.message_id]),
  );
  const anyAlias = byKey(known.filter(uidLess).map((k) => [k.turn_key, k.message_id]));
  const withUid = known.filter((k) => !uidLess(k));
  const ownUid = byKey(withUid.map((k) => [at(k.turn_key, k.location), k.message_id]));
  const anyUid = byKey(withUid.map((k) => [k.turn_key, k.message_id]));
  // The batch's own uids win over stored ones (last wins, as the batch is written last).
  const batchUid = byKey(
    messages.filter((m) => !uidLess(m)).map((m) => [at(m.turn_key, m.location_uid), m.message_id]),
  );
  const rows = new Map<string, StoredMessage>();
  for (const m of messages) {
    const key = at(m.turn_key, m.location_uid);
    const own = ownTurns.has(key) || !elsewhere;
    const alias = own ? ownAlias.get(key) : anyAlias.get(m.turn_key);
    const uid = batchUid.get(key) ?? (own ? ownUid.get(key) : anyUid.get(m.turn_key));
    const id = alias ?? (uidLess(m) ? uid : undefined) ?? m.message_id;
    rows.set(at(id, m.location_uid), { ...m, message_id: id });
  }
  return [...rows.values()];
}

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
   * Stores each message once per location: a message id is unique within a location
   * (migration 21), so two tenants may store the same Podium uid. A message met before under
   * its other id (with and without a uid) keeps its stored id; a known message may correct
   * its channel.
   *
   * `scope`: a location-bound caller's locations. Such a caller's writes see only rows of the
   * message's own location: they never find, move or block another location's row. An
   * unbound write (admin key, CLI, webhook) corrects a message's location: when exactly one
   * row holds the id, under another location and the same contact and conversation, it is
   * moved; otherwise the named location's row is written. Callers hold the contact's lock.
   */
  async save(messages: readonly StoredMessage[], scope?: readonly string[]): Promise<void> {
    if (messages.length === 0) {
      return;
    }
    const known = await this.knownTurns(messages, scope);
    const list = resolveIds(messages, known, !scope);
    if (!scope) {
      // A message already stored under its own location has nothing to move: a re-sent
      // export or a redelivered webhook costs no extra statement.
      const stored = new Set(known.map((k) => at(k.message_id, k.location)));
      await this.relocate(list.filter((m) => !stored.has(at(m.message_id, m.location_uid))));
    }
    // Raw: an unnest() bulk insert with a conditional ON CONFLICT … DO UPDATE … WHERE on the
    // per-location key's expressions.
    await this.database.execute(
      `INSERT INTO conversation_messages (${COLUMNS.map(([n]) => n).join(', ')})
       SELECT * FROM unnest(${COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})
       ON CONFLICT (message_id, (coalesce(location_uid, ''))) DO UPDATE
         SET channel = EXCLUDED.channel
         WHERE conversation_messages.contact_uid = EXCLUDED.contact_uid
           AND conversation_messages.conversation_uid = EXCLUDED.conversation_uid
           AND conversation_messages.channel <> EXCLUDED.channel`,
      COLUMNS.map(([name]) => list.map((m) => m[name])),
    );
  }

  /**
   * The batch's turns already stored, looked up by conversation (one index entry each,
   * migration 20), then key among its rows, which the rebuild after reads anyway. A bound
   * write looks only in each message's own location.
   */
  private knownTurns(messages: readonly StoredMessage[], scope?: readonly string[]) {
    const turns = [
      ...new Map(messages.map((m) => [at(m.turn_key, m.location_uid), m] as const)).values(),
    ];
    // Raw: the batch's turns as three array parameters joined with unnest().
    return this.database.query<KnownTurn>(
      `SELECT m.message_id, m.turn_key, coalesce(m.location_uid, '') AS location
       FROM conversation_messages m
       JOIN unnest($1::text[], $2::text[], $3::text[]) AS t(conversation, turn_key, location)
         ON m.conversation_uid = t.conversation AND m.turn_key = t.turn_key
       WHERE NOT $4::boolean OR coalesce(m.location_uid, '') = t.location`,
      [
        turns.map((m) => m.conversation_uid),
        turns.map((m) => m.turn_key),
        turns.map((m) => m.location_uid ?? ''),
        scope !== undefined,
      ],
    );
  }

  /**
   * An unbound write's location correction: moves the one row that holds each id elsewhere,
   * with the same contact and conversation. An id held by several locations moves nothing.
   */
  private async relocate(list: readonly StoredMessage[]): Promise<void> {
    if (list.length === 0) {
      return;
    }
    // Raw: an UPDATE … FROM unnest() with a per-id count on the (message_id, …) index.
    await this.database.execute(
      `UPDATE conversation_messages m SET location_uid = t.location, channel = t.channel
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
         AS t(message_id, location, channel, contact, conversation)
       WHERE m.message_id = t.message_id
         AND coalesce(m.location_uid, '') <> coalesce(t.location, '')
         AND m.contact_uid = t.contact AND m.conversation_uid = t.conversation
         AND (SELECT count(*) FROM conversation_messages o WHERE o.message_id = t.message_id) = 1`,
      [
        list.map((m) => m.message_id),
        list.map((m) => m.location_uid),
        list.map((m) => m.channel),
        list.map((m) => m.contact_uid),
        list.map((m) => m.conversation_uid),
      ],
    );
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
    return this.conversationKeys()
      .orderBy('m.contactUid')
      .addOrderBy('m.conversationUid')
      .getRawMany<ConversationKey>();
  }

  /** The distinct (contact, conversation) pairs of stored messages, as a query to narrow. */
  private conversationKeys() {
    return this.database.dataSource
      .getRepository(ConversationMessageEntity)
      .createQueryBuilder('m')
      .select('m.contactUid', 'contact_uid')
      .addSelect('m.conversationUid', 'conversation_uid')
      .distinct(true);
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

  /**
   * The conversations of a contact, from the window ledger and the messages; with
   * `locations`, only those holding a message there (the ledger has no location, and a
   * count over it would tell a bound key how many conversations other tenants hold).
   */
  async contactConversations(
    contactUid: string,
    locations?: readonly string[],
  ): Promise<ConversationKey[]> {
    if (locations) {
      return this.conversationKeys()
        .where('m.contactUid = :contactUid', { contactUid })
        .andWhere('m.locationUid IN (:...locations)', { locations: [...locations] })
        .getRawMany<ConversationKey>();
    }
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
