import { type PodiumContacts } from '@app/podium';
import { type ConversationKey, type VectorStore } from '@app/vector';

import { type ConversationMessagesRepository } from '../relational/conversation-messages.repository';
import { type HistoryTombstones } from '../relational/history-tombstones';
import { type ReplicaLocks } from './replica-locks';

/**
 * How long a forget deletes before it answers. A typical history is gone by then; a large
 * one (tens of thousands of windows: tens of seconds of batched deletes) is already invisible
 * to every read and is deleted by the background purge.
 */
export const FORGET_INLINE_MS = 1000;

/** What a forget did; `pending`: rows are still being deleted, though none can be read. */
export interface ForgetReport {
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

const keyOf = (k: ConversationKey) => `${k.contact_uid}\u001f${k.conversation_uid}`;

/**
 * Forgetting a contact's history. The tombstone commits first, and from then on nothing it
 * covers is read: message loads skip it (no rebuild writes its windows again), and the
 * vector store hides the windows (`hideContact`). Deleting the rows is then only cleanup, in
 * short batches, done inline up to FORGET_INLINE_MS and finished in the background (resumed
 * from the tombstone after a crash). A forget in some locations only rebuilds those
 * conversations and finishes inline, as a location is a small part of a history.
 */
export class ForgottenHistory {
  constructor(
    private readonly messages: ConversationMessagesRepository,
    private readonly forgets: HistoryTombstones,
    private readonly store: VectorStore,
    private readonly contacts: PodiumContacts,
    private readonly locks: ReplicaLocks,
    private readonly rebuild: (keys: readonly ConversationKey[]) => Promise<{ removed: number }>,
  ) {}

  async forget(
    contactUid: string,
    locations: readonly string[] | undefined,
    at: Date,
    inline: number | AbortSignal,
  ): Promise<ForgetReport> {
    await this.locks.run('contact', [contactUid], () =>
      this.forgets.recordForget(contactUid, locations, at),
    );
    if (locations) {
      return this.forgetInLocations(contactUid, [...locations], at);
    }
    await this.store.hideContact?.(contactUid, at);
    const keys = await this.messages.contactConversations(contactUid);
    // A rebuild that loaded messages before the tombstone committed ends before the purge
    // starts, so it cannot write a forgotten window after the purge has passed it.
    await this.locks.run('conversation', keys.map(keyOf), () => Promise.resolve());
    // A store that cannot hide its windows deletes them all now, in one call (Qdrant's
    // delete by filter); the purge then leaves them alone, so it cannot take newer ones.
    const direct = this.store.hideContact
      ? 0
      : (await this.store.deleteContact(contactUid)).removed;
    const signal =
      typeof inline !== 'number'
        ? inline
        : Number.isFinite(inline)
          ? AbortSignal.timeout(inline)
          : undefined;
    const purge = await this.purge(contactUid, at, signal);
    await this.contacts.invalidate(contactUid);
    return {
      location_uids: null,
      conversations: keys.length,
      windows_removed: direct + purge.windows_removed,
      pending: !purge.complete,
    };
  }

  /**
   * Deletes what the whole-contact forget at `at` covers (windows up to `at` where the store
   * hides them, then messages, then the ledger of conversations left empty), until done or
   * `signal` aborts; idempotent.
   */
  async purge(contactUid: string, at: Date, signal?: AbortSignal): Promise<PurgeReport> {
    const windows = this.store.hideContact
      ? await this.store.deleteContact(contactUid, undefined, { before: at, signal })
      : { removed: 0, complete: true };
    if (!windows.complete) {
      return { windows_removed: windows.removed, complete: false };
    }
    const messages = await this.messages.deleteForgotten(contactUid, undefined, at, signal);
    if (!messages.complete) {
      return { windows_removed: windows.removed, complete: false };
    }
    await this.messages.dropContactWindows(contactUid);
    await this.forgets.markPurged(contactUid, at);
    return { windows_removed: windows.removed, complete: true };
  }

  private async forgetInLocations(
    contactUid: string,
    locations: string[],
    at: Date,
  ): Promise<ForgetReport> {
    const { keys } = await this.messages.deleteForgotten(contactUid, locations, at);
    // The conversations keep their other locations' windows, so they are rebuilt; windows
    // stored before messages were kept (not in the ledger) go by contact and location.
    const rebuilt = (await this.rebuild(keys)).removed;
    const byContact = await this.store.deleteContact(contactUid, locations);
    await this.forgets.markPurged(contactUid, at);
    await this.contacts.invalidate(contactUid);
    return {
      location_uids: locations,
      conversations: keys.length,
      windows_removed: rebuilt + byContact.removed,
      pending: false,
    };
  }
}
