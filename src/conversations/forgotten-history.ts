import { type PodiumContacts } from '@app/podium';
import { type ConversationKey, type VectorStore } from '@app/vector';
import { Logger } from '@nestjs/common';

import { type ConversationMessagesRepository } from '../relational/conversation-messages.repository';
import { type ErasureReceipts, type ErasureStore } from '../relational/erasure-receipts';
import { type ErasureWork } from '../relational/erasure-work';
import { type HistoryTombstones, type PendingForget } from '../relational/history-tombstones';
import { type ReplicaLocks } from './replica-locks';

/**
 * How long a forget deletes before it answers. A typical history is gone by then; a large
 * one (tens of thousands of windows: tens of seconds of batched deletes) is already invisible
 * to every read and is deleted by the background purge.
 */
export const FORGET_INLINE_MS = 1000;

/** What a forget did; `pending`: rows are still being deleted, though none can be read. */
export interface ForgetReport {
  /** `GET /contacts/forget/receipts/{receipt_id}` shows what is cleared, store by store. */
  receipt_id: string;
  location_uids: string[] | null;
  conversations: number;
  windows_removed: number;
  pending: boolean;
}

/** A purge's progress: windows removed, and whether the forget's rows are all gone. */
export interface PurgeReport {
  windows_removed: number;
  complete: boolean;
}

/** Conversations rebuilt per round of a purge. */
const REBUILD_ROUND = 64;

const keyOf = (k: ConversationKey) => `${k.contact_uid}\u001f${k.conversation_uid}`;

/** What ForgottenHistory works with (all owned by ConversationMemory). */
export interface ForgetDeps {
  messages: ConversationMessagesRepository;
  forgets: HistoryTombstones;
  work: ErasureWork;
  receipts: ErasureReceipts;
  store: VectorStore;
  contacts: PodiumContacts;
  locks: ReplicaLocks;
  transaction: <T>(
    work: (tx: Parameters<HistoryTombstones['recordForget']>[0]) => Promise<T>,
  ) => Promise<T>;
  rebuild: (keys: readonly ConversationKey[]) => Promise<{ removed: number }>;
}

/**
 * Forgetting a contact's history by membership: the forget covers every message of its
 * scope stored when its tombstone commits (the database's clock), whatever the message's
 * own date, and every window stored before it of the contact (whole-contact forget) or of
 * those locations. From the commit nothing covered is read (message loads skip it, the
 * vector store hides the windows); the purge then deletes in short batches, inline up to
 * FORGET_INLINE_MS and finished in the background, resumed from the tombstone after any
 * crash. Every conversation that lost a message is rebuilt from what it keeps, so no window
 * that holds a forgotten message survives. A location's forget never completes a pending
 * whole-contact one.
 */
export class ForgottenHistory {
  private readonly logger = new Logger(ForgottenHistory.name);

  constructor(private readonly d: ForgetDeps) {}

  async forget(
    contactUid: string,
    locations: readonly string[] | undefined,
    at: Date,
    inline: number | AbortSignal,
  ): Promise<ForgetReport> {
    const scope = locations ? [...new Set(locations)] : undefined;
    const { storedBefore, receiptId } = await this.d.locks.run(
      'contact',
      [contactUid],
      async () => {
        const written = await this.d.transaction(async (tx) => ({
          storedBefore: await this.d.forgets.recordForget(tx, contactUid, scope, at),
          receiptId: await this.d.receipts.open(tx, contactUid, scope),
        }));
        // The next message stored for the contact is then after the forget, to the microsecond.
        await this.d.work.waitPast(written.storedBefore);
        return written;
      },
    );
    // A location's forget counts (and touches) its own conversations only.
    const keys = await this.d.messages.contactConversations(contactUid, scope);
    if (scope) {
      await this.barrier(keys); // rebuilds that loaded messages before the tombstone end first
    }
    const direct = scope ? 0 : await this.hide(contactUid, keys);
    const signal =
      typeof inline !== 'number'
        ? inline
        : Number.isFinite(inline)
          ? AbortSignal.timeout(inline)
          : undefined;
    const purge = await this.purge(
      { contact_uid: contactUid, locations: scope, stored_before: storedBefore },
      signal,
    );
    return {
      receipt_id: receiptId,
      location_uids: scope ?? null,
      conversations: keys.length,
      windows_removed: direct + purge.windows_removed,
      pending: !purge.complete,
    };
  }

  /** A pending forget as the background purge resumes it. */
  resume(pending: PendingForget, signal?: AbortSignal): Promise<PurgeReport> {
    return this.purge(
      {
        contact_uid: pending.contact_uid,
        locations: pending.location_uid ? [pending.location_uid] : undefined,
        stored_before: pending.stored_before,
      },
      signal,
    );
  }

  /**
   * Deletes what the forget covers (windows, messages, rebuilds of what the conversations
   * keep, the inbox's copies), until done or `signal` aborts; idempotent, resumable.
   */
  async purge(
    forget: { contact_uid: string; locations?: string[]; stored_before: string },
    signal?: AbortSignal,
  ): Promise<PurgeReport> {
    const { contact_uid: contact, locations } = forget;
    let removed = 0;
    if (locations) {
      // Nothing hides a location's windows while its purge is pending (a large history, a
      // crash): they go first, before the messages, in one call whatever the signal says.
      removed += (await this.d.store.deleteContact(contact, locations)).removed;
    }
    if (!locations && this.d.store.hideContact) {
      // Hidden at the forget; hidden again here if a crash came first (idempotent).
      const before =
        (await this.d.work.hiddenBefore(contact)) ??
        (await this.hideNow(contact, await this.d.messages.contactConversations(contact)));
      const windows = await this.d.store.deleteContact(contact, undefined, { before, signal });
      removed += windows.removed;
      if (!windows.complete) {
        return { windows_removed: removed, complete: false };
      }
    }
    if (!(await this.d.work.deleteCovered(contact, locations, forget.stored_before, signal))) {
      return { windows_removed: removed, complete: false };
    }
    await this.stamp(contact, locations, ['messages']);
    if (locations || !this.d.store.hideContact) {
      // A store that cannot hide deletes every window of the scope (one call); for a
      // location, what a rebuild racing the purge stored since its first call.
      removed += (await this.d.store.deleteContact(contact, locations)).removed;
    }
    // Every conversation the contact keeps is rebuilt too: what a deletion by contact took
    // (or a hide took from a rebuild racing the forget) comes back from what is kept.
    await this.d.work.list(await this.d.messages.contactConversations(contact));
    if (!(await this.rebuildListed(contact, signal))) {
      return { windows_removed: removed, complete: false };
    }
    if (!locations) {
      await this.d.messages.dropContactWindows(contact);
    }
    await this.stamp(contact, locations, ['windows', 'postings_and_statistics', 'vector_points']);
    await this.stampIndex(contact, locations);
    await this.d.work.clearWebhookPayloads(contact, locations);
    await this.d.work.deleteLocalContact(contact, locations);
    if (!locations) {
      await this.d.work.clearContactTombstones(contact);
    }
    await this.stamp(contact, locations, ['webhook_payloads']);
    for (const scope of locations ?? ['']) {
      await this.d.forgets.markPurged(contact, scope, forget.stored_before);
    }
    await this.settleCaches(contact, locations);
    return { windows_removed: removed, complete: true };
  }

  /**
   * The live-contact cache, best effort: a forget never fails because Redis is down. A
   * receipt stays open until the cache is reached (the purge job retries), and completes.
   */
  async settleCaches(contact: string, locations?: readonly string[]): Promise<void> {
    await this.stampIndex(contact, locations);
    try {
      await this.d.contacts.invalidate(contact);
      await this.stamp(contact, locations, ['caches']);
    } catch (error) {
      this.logger.warn(`forget: cache not invalidated yet (${(error as Error).name})`);
    }
    await this.d.receipts.complete(contact);
  }

  /** Rebuilds the contact's listed conversations (a forget's), until none or aborted. */
  private async rebuildListed(contact: string, signal?: AbortSignal): Promise<boolean> {
    for (;;) {
      if (signal?.aborted) {
        return false;
      }
      const listed = await this.d.work.listed(REBUILD_ROUND, contact);
      if (listed.length === 0) {
        return true;
      }
      await this.d.rebuild(listed);
      await this.d.work.rebuilt(listed);
    }
  }

  /** Hides the contact's stored windows from every read at once; or deletes them. */
  private async hide(contact: string, keys: readonly ConversationKey[]): Promise<number> {
    if (this.d.store.hideContact) {
      await this.hideNow(contact, keys);
      return 0;
    }
    await this.barrier(keys);
    return (await this.d.store.deleteContact(contact)).removed;
  }

  /**
   * Hides every window of the contact stored by now. Rebuilds that loaded messages before
   * the tombstone committed end first, so their windows are stored before the cutoff.
   */
  private async hideNow(contact: string, keys: readonly ConversationKey[]): Promise<string> {
    await this.barrier(keys);
    const cutoff = await this.d.work.now();
    await this.d.store.hideContact?.(contact, cutoff);
    return cutoff;
  }

  private barrier(keys: readonly ConversationKey[]): Promise<void> {
    return this.d.locks.run('conversation', keys.map(keyOf), () => Promise.resolve());
  }

  /**
   * The contact's own HNSW index: gone once its upkeep drops it (the contact has no windows
   * left), which the purge job then sees on a later turn. A location's forget leaves the
   * index of the contact's other windows, which holds none of the forgotten rows.
   */
  private async stampIndex(contact: string, locations?: readonly string[]): Promise<void> {
    if (locations || !(await this.d.work.hasContactIndex(contact))) {
      await this.stamp(contact, locations, ['contact_indexes']);
    }
  }

  private stamp(
    contact: string,
    locations: readonly string[] | undefined,
    stores: readonly ErasureStore[],
  ) {
    return this.d.receipts.cleared(contact, locations, stores);
  }
}
