import { contentHash, InvalidInputError } from '@app/common';
import { Database, StoreModelFollower } from '@app/database';
import { EmbeddingService } from '@app/embedding';
import { PODIUM_CONTACTS, type PodiumContacts } from '@app/podium';
import {
  type ConversationKey,
  VECTOR_STORE,
  type VectorRecord,
  type VectorStore,
} from '@app/vector';
import { Inject, Injectable } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config/app-config';
import {
  ConversationMessagesRepository,
  type StoredMessage,
  uniqueKeys,
} from '../relational/conversation-messages.repository';
import { type ErasureReceipt, ErasureReceipts } from '../relational/erasure-receipts';
import { ErasureWork } from '../relational/erasure-work';
import { type HistoryTombstone, HistoryTombstones } from '../relational/history-tombstones';
import { ContactMerge } from './contact-merge';
import { chunkConversations, type WindowMessage } from './conversation-windows';
import { FORGET_INLINE_MS, type ForgetReport, ForgottenHistory } from './forgotten-history';
import { ReplicaLocks } from './replica-locks';

/** A redacted message on its way into memory (any route: ingest, CLI, webhook). */
export interface IncomingMessage extends WindowMessage {
  message_uid?: string;
}

/** Windows embedded and stored (`inserted`), or found already stored (`skipped`). */
export interface RebuildReport {
  inserted: number;
  skipped: number;
  /** Windows removed because their conversation no longer produces them. */
  removed: number;
}

/** Called after each group of conversations, for the CLI's progress bar. */
export type RebuildProgress = (done: number, total: number) => void;

/** Conversations rebuilt per round: a few statements and one embedding batch per group. */
const GROUP = 32;
/** Windows per embedding call: keeps both embedder workers busy, commits often. */
const EMBED_BATCH = 64;

const keyOf = (k: ConversationKey) => `${k.contact_uid}\u001f${k.conversation_uid}`;

/** The stable ids of a message (see the conversation_messages migration). */
export function toStoredMessage(m: IncomingMessage): StoredMessage {
  const occurred_at = new Date(m.occurred_at).toISOString();
  const text = m.text.trim();
  const turn_key = contentHash('message', m.conversation_uid, occurred_at, m.sender, text);
  return {
    message_id: m.message_uid ?? turn_key,
    turn_key,
    conversation_uid: m.conversation_uid,
    contact_uid: m.contact_uid,
    location_uid: m.location_uid ?? null,
    channel: m.channel,
    occurred_at,
    sender: m.sender,
    text,
  };
}

const forgotten = (m: StoredMessage, tombstones: HistoryTombstone[]) =>
  tombstones.some(
    (t) =>
      t.contact_uid === m.contact_uid &&
      (t.location_uid === '' || t.location_uid === m.location_uid) &&
      Date.parse(m.occurred_at) <= new Date(t.forgotten_at).getTime(),
  );

/**
 * Conversation memory: messages are stored once and are the source of truth; a
 * conversation's windows are derived from all its stored messages whenever it changes, so
 * the stored windows do not depend on how the messages were split into requests.
 *
 * Every read-then-write sequence runs under a lock that holds across replicas: a
 * conversation's rebuild (read messages and ledger, embed, write windows) under the
 * conversation's lock, so two replicas rebuilding one conversation cannot leave the older
 * snapshot's windows behind; storing messages and forgetting a contact under the contact's
 * lock, so a message checked against the tombstones is not stored after the forget.
 */
@Injectable()
export class ConversationMemory {
  private readonly locks: ReplicaLocks;
  private readonly forgotten: ForgottenHistory;
  private readonly work: ErasureWork;
  private readonly receipts: ErasureReceipts;
  private readonly merge: ContactMerge;
  /** Called when a forget left rows to delete (the background purge starts at once). */
  onPendingForget?: () => void;
  /**
   * How far ahead of the server's clock a message may be dated (HISTORY_MAX_FUTURE_SECONDS).
   * Windows and the ingest's tombstone check read `occurred_at`; a date in the far future
   * would stay "newer" than any forget, so it is refused (400 `occurred_at_in_future`).
   */
  private readonly maxFutureMs: number;

  constructor(
    private readonly database: Database,
    private readonly messages: ConversationMessagesRepository,
    private readonly forgets: HistoryTombstones,
    private readonly embedding: EmbeddingService,
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
    @Inject(PODIUM_CONTACTS) private readonly contacts: PodiumContacts,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly follower: StoreModelFollower,
  ) {
    this.maxFutureMs = config.history.maxFutureMs;
    this.locks = new ReplicaLocks(database);
    this.work = new ErasureWork(database);
    // pgvector (it hides rows) keeps windows as rows; Qdrant keeps them, postings too, as points.
    this.receipts = new ErasureReceipts(
      database,
      new Set(
        store.hideContact ? ['vector_points'] : ['postings_and_statistics', 'contact_indexes'],
      ),
    );
    this.forgotten = new ForgottenHistory({
      messages,
      forgets,
      work: this.work,
      receipts: this.receipts,
      store,
      contacts,
      locks: this.locks,
      transaction: (work) => database.transaction(work),
      rebuild: (keys) => this.rebuild(keys),
    });
    this.merge = new ContactMerge(database, forgets, store, this.locks, (contact) =>
      this.purgeContact(contact),
    );
  }

  /**
   * Stores the messages (minus forgotten ones) and rebuilds their conversations. Messages
   * are committed before windows, so a crash in between is repaired by the re-run (or by
   * `reindex`): the re-run finds the messages stored and rebuilds the same windows.
   */
  async add(
    incoming: readonly IncomingMessage[],
    onProgress?: RebuildProgress,
    /** A location-bound caller's locations: it may not relabel another tenant's message. */
    scope?: readonly string[],
  ) {
    const rows = incoming.map(toStoredMessage);
    this.refuseFutureDates(rows);
    const contacts = rows.map((m) => m.contact_uid);
    const kept = await this.locks.run('contact', contacts, async () => {
      const tombstones = await this.forgets.tombstones(rows.map((m) => m.contact_uid));
      const allowed = tombstones.length ? rows.filter((m) => !forgotten(m, tombstones)) : rows;
      await this.messages.save(allowed, scope);
      return allowed;
    });
    const report = await this.rebuild(uniqueKeys(kept), false, onProgress);
    return { ...report, forgotten: rows.length - kept.length };
  }

  /**
   * Recomputes the windows of `keys` from their stored messages: embeds only windows not
   * stored yet and removes the ones no longer produced. `full` also removes windows this
   * service did not derive (stored before messages were kept): `reindex`.
   */
  async rebuild(
    keys: readonly ConversationKey[],
    full = false,
    onProgress?: RebuildProgress,
  ): Promise<RebuildReport> {
    const total: RebuildReport = { inserted: 0, skipped: 0, removed: 0 };
    for (let i = 0; i < keys.length; i += GROUP) {
      const group = keys.slice(i, i + GROUP);
      const report = await this.locks.run('conversation', group.map(keyOf), () =>
        // A reembed may switch the store between the embed and the write: again on the new model.
        this.follower.retryOnSwitch(() => this.rebuildGroup(group, full)),
      );
      total.inserted += report.inserted;
      total.skipped += report.skipped;
      total.removed += report.removed;
      onProgress?.(Math.min(i + GROUP, keys.length), keys.length);
    }
    return total;
  }

  /** Every conversation with stored messages, rebuilt in full (`npx context-bridge reindex`). */
  async reindex(onProgress?: RebuildProgress): Promise<RebuildReport & { conversations: number }> {
    const keys = await this.messages.conversations();
    return { conversations: keys.length, ...(await this.rebuild(keys, true, onProgress)) };
  }

  /**
   * Forgets a contact's history, in `locations` only when given (a location-bound key's
   * scope, or the CLI's --location). Deletes for `inline` ms (Infinity: to the end) or until
   * that signal aborts (see {@link ForgottenHistory}): what is left is already unreadable,
   * and `purgeForgotten` (the background job) deletes it.
   */
  async forgetContact(
    contactUid: string,
    locations: readonly string[] | undefined,
    now = new Date(),
    inline: number | AbortSignal = FORGET_INLINE_MS,
  ): Promise<ForgetReport> {
    const report = await this.forgotten.forget(contactUid, locations, now, inline);
    if (report.pending) {
      this.onPendingForget?.();
    }
    return report;
  }

  /**
   * Finishes the pending whole-contact forgets (the oldest first, up to `limit`), each until
   * done or `signal` aborts; returns how many finished. Safe on several replicas at once:
   * every step is an idempotent batch.
   */
  async purgeForgotten(limit = 100, signal?: AbortSignal): Promise<number> {
    let finished = 0;
    for (const pending of await this.forgets.pendingForgets(limit)) {
      if (signal?.aborted) {
        break;
      }
      if ((await this.forgotten.resume(pending, signal)).complete) {
        finished++;
      }
    }
    // Receipts that wait for a cache (Redis was down), then rebuilds a crash left listed.
    for (const contact of await this.receipts.waiting(limit)) {
      await this.forgotten.settleCaches(contact);
    }
    if (!signal?.aborted) {
      await this.rebuildListed(signal);
    }
    return finished;
  }

  /** Finishes the contact's pending forgets now (a merge moves nothing they cover). */
  private async purgeContact(contactUid: string): Promise<void> {
    for (const pending of await this.forgets.pendingForgets(100, contactUid)) {
      await this.forgotten.resume(pending);
    }
  }

  /** A forget's receipt: what each derived store cleared, and when. */
  receipt(receiptId: string): Promise<ErasureReceipt | undefined> {
    return this.receipts.find(receiptId);
  }

  /**
   * Deletes messages older than `cutoff` and rebuilds the conversations that lost some. The
   * deletion lists them durably first, so a crash anywhere is finished by the next run.
   */
  async purgeBefore(cutoff: Date): Promise<RebuildReport & { conversations: number }> {
    await this.work.deleteExpired(cutoff);
    return this.rebuildListed();
  }

  /**
   * CRM contacts merged: messages, window ledger and stored windows follow the survivor, in
   * one transaction under both contacts' locks, after the source's pending forgets finish.
   */
  async reassignContact(fromContactUid: string, toContactUid: string): Promise<number> {
    return this.merge.run(fromContactUid, toContactUid);
  }

  /** Rebuilds every listed conversation (see ErasureWork), until none is left. */
  private async rebuildListed(
    signal?: AbortSignal,
  ): Promise<RebuildReport & { conversations: number }> {
    const total = { conversations: 0, inserted: 0, skipped: 0, removed: 0 };
    while (!signal?.aborted) {
      const listed = await this.work.listed(GROUP * 8);
      if (listed.length === 0) {
        break;
      }
      const report = await this.rebuild(listed);
      await this.work.rebuilt(listed);
      total.conversations += listed.length;
      total.inserted += report.inserted;
      total.skipped += report.skipped;
      total.removed += report.removed;
    }
    return total;
  }

  /** Throws 400 `occurred_at_in_future` for a message dated past the allowed skew (any route). */
  refuseFutureDates(rows: ReadonlyArray<{ occurred_at: string }>): void {
    const limit = Date.now() + this.maxFutureMs;
    const late = rows.findIndex((m) => Date.parse(m.occurred_at) > limit);
    if (late >= 0) {
      throw new InvalidInputError(
        'occurred_at_in_future',
        `occurred_at may be at most ${Math.round(this.maxFutureMs / 1000)} s ahead of the server's clock; nothing was stored.`,
      );
    }
  }

  private async rebuildGroup(keys: ConversationKey[], full: boolean): Promise<RebuildReport> {
    const [messages, previous] = await Promise.all([
      this.messages.load(keys),
      this.messages.windowIds(keys),
    ]);
    const windows = [...new Map(chunkConversations(messages).map((w) => [w.id, w])).values()];
    const existing = await this.store.existingIds(
      'conversations',
      windows.map((w) => w.id),
    );
    const fresh = windows.filter((w) => !existing.has(w.id));
    const records: Array<VectorRecord<'conversations'>> = [];
    for (let i = 0; i < fresh.length; i += EMBED_BATCH) {
      const batch = fresh.slice(i, i + EMBED_BATCH);
      const vectors = await this.embedding.embedDocuments(batch.map((w) => w.content));
      batch.forEach(({ id, content, ...payload }, j) =>
        records.push({ id, content, embedding: vectors[j], payload }),
      );
    }
    const current = new Set(windows.map((w) => w.id));
    const stale = previous.filter((id) => !current.has(id));
    // Ledger first: a crash after it leaves ids the next rebuild re-checks, never orphans.
    await this.messages.recordWindows(windows);
    await this.store.replaceWindows(
      records,
      full ? { allOtherWindowsOf: keys, keep: [...current] } : { ids: stale },
    );
    await this.messages.dropWindows(stale);
    return {
      inserted: fresh.length,
      skipped: windows.length - fresh.length,
      removed: stale.length,
    };
  }
}
