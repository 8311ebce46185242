import { PODIUM_CONTACTS, type PodiumContacts } from '@app/podium';
import { Inject, Injectable } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ConversationMemory } from '../conversations/conversation-memory.service';
import { IngestService } from '../ingest/ingest.service';
import { ContactTombstones } from '../relational/contact-tombstones';
import { HistoryTombstones } from '../relational/history-tombstones';
import { type ClaimedEvent } from '../relational/webhook-inbox';
import {
  type ContactKeying,
  type HandledEventType,
  isHandledEventType,
  type PodiumEnvelope,
  toAction,
  WebhookPayloadError,
} from './podium-events';

/** What processing did; `skipped` events are done but changed nothing. */
export type ProcessResult = { outcome: 'processed' | 'skipped'; type: HandledEventType };

/**
 * Applies one stored event. Every effect is idempotent (cache invalidation, re-keying and
 * deleting by contact, content-hash ingestion), so an event processed twice, after a crash
 * between the effect and the inbox update, changes nothing the second time. A contact event
 * whose cache invalidation fails, fails: the worker retries it, so a deleted or merged
 * contact's live fields are never left in a shared cache behind an event marked done.
 */
@Injectable()
export class WebhookProcessor {
  /**
   * With the `api` CRM, callers name contacts by phone or email (what Podium looks them up
   * by), so a message is stored under its conversation's channel identifier; the embedded
   * CRM names them by Podium uid.
   */
  private readonly keying: ContactKeying;

  constructor(
    @Inject(PODIUM_CONTACTS) private readonly contacts: PodiumContacts,
    private readonly memory: ConversationMemory,
    private readonly ingest: IngestService,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly tombstones: ContactTombstones,
    private readonly forgets: HistoryTombstones,
  ) {
    this.keying = config.podium.provider === 'api' ? 'channel_identifier' : 'podium_uid';
  }

  private async invalidateAll(contactUids: string[], signal?: AbortSignal): Promise<void> {
    for (const id of contactUids) {
      signal?.throwIfAborted();
      await this.contacts.invalidate(id);
    }
  }

  /**
   * Drops the cached live copies of the contacts a contact event changes, on arrival, before
   * the delivery is acknowledged: from then on no replica serves the old live fields (the
   * cache is shared, and so is its guard against a lookup in flight writing one back). The
   * worker does it again when it processes the event; a payload it cannot read is left to
   * the worker to dead-letter.
   */
  async invalidateOnArrival(type: string, envelope: PodiumEnvelope): Promise<void> {
    if (!isHandledEventType(type) || !type.startsWith('contact.')) {
      return;
    }
    const action = this.actionOnArrival(type, envelope);
    if (!action) {
      return;
    }
    if (action.kind === 'invalidate' || action.kind === 'delete' || action.kind === 'merge') {
      await this.invalidateAll(action.contactUids);
    }
  }

  /** When the contact's whole history was last forgotten, if it was. */
  private async forgottenAt(contactUid: string): Promise<Date | undefined> {
    const whole = (await this.forgets.tombstones([contactUid])).filter((t) => !t.location_uid);
    return whole.length
      ? new Date(Math.max(...whole.map((t) => t.forgotten_at.getTime())))
      : undefined;
  }

  /**
   * A message dated further ahead of our clock than HISTORY_MAX_FUTURE_SECONDS is refused on
   * arrival with 400 `occurred_at_in_future`, as `POST /ingest/conversations` refuses it:
   * stored, it would only be retried until dead-lettered, its text kept meanwhile. Nothing is
   * stored, and Podium redelivers what it got no 2xx for, so a clock briefly behind loses
   * nothing. A payload it cannot read is left to the worker to dead-letter.
   */
  refuseOnArrival(type: string, envelope: PodiumEnvelope): void {
    if (type !== 'message.received' && type !== 'message.sent') {
      return;
    }
    const action = this.actionOnArrival(type, envelope);
    if (action?.kind === 'ingest') {
      this.memory.refuseFutureDates([action.record]);
    }
  }

  /** What the event asks for, read at arrival; a payload it cannot read is the worker's. */
  private actionOnArrival(
    type: HandledEventType,
    envelope: PodiumEnvelope,
  ): ReturnType<typeof toAction> | undefined {
    try {
      return toAction(type, envelope.data, new Date(), this.keying);
    } catch {
      return undefined;
    }
  }

  /**
   * `signal` aborts when the worker's per-event deadline passes: the effects are checked for
   * it in between, so a timed-out event stops instead of racing its own retry.
   */
  async process(event: ClaimedEvent, signal?: AbortSignal): Promise<ProcessResult> {
    if (!isHandledEventType(event.type)) {
      throw new WebhookPayloadError(`unhandled event type ${event.type}`);
    }
    const type = event.type;
    const action = toAction(type, event.payload?.data, event.received_at, this.keying);
    // Podium's order of events is the order of its deliveries: their arrival time here.
    const at = event.received_at;
    switch (action.kind) {
      case 'invalidate':
        if (type === 'contact.created' || type === 'contact.updated') {
          // The ids are in use again (a returning customer, a reassigned number).
          await this.tombstones.lift(action.contactUids, at);
        }
        await this.invalidateAll(action.contactUids, signal);
        break;
      case 'delete':
        // Tombstone first: a late message for this contact must not bring its text back.
        await this.tombstones.recordDeleted(action.contactUids, at);
        // Messages too, or a rebuild (retention, reindex) would bring the windows back.
        for (const id of action.contactUids) {
          signal?.throwIfAborted();
          await this.memory.forgetContact(id, undefined, event.received_at);
        }
        await this.invalidateAll(action.contactUids, signal);
        break;
      case 'merge':
        // A forgotten id is not remembered in clear, and what it said up to its forget must
        // not reach the survivor by redirection: its own tombstone keeps refusing that.
        if (!(await this.forgottenAt(action.fromContactUid))) {
          await this.tombstones.recordMerged(action.fromContactUid, action.toContactUid, at);
        }
        signal?.throwIfAborted();
        await this.memory.reassignContact(action.fromContactUid, action.toContactUid);
        await this.invalidateAll(action.contactUids, signal);
        break;
      case 'ingest': {
        const record = action.record;
        const tombstone = await this.tombstones.lookup(
          record.contact_uid,
          new Date(record.occurred_at),
        );
        if (tombstone?.kind === 'deleted') {
          return { outcome: 'skipped', type };
        }
        if (tombstone?.kind === 'merged') {
          // Redirected, it would pass the survivor's tombstones instead of its own.
          const forgotten = await this.forgottenAt(record.contact_uid);
          if (forgotten && Date.parse(record.occurred_at) <= forgotten.getTime()) {
            return { outcome: 'skipped', type };
          }
          record.contact_uid = tombstone.into;
        }
        signal?.throwIfAborted();
        // The same path as POST /ingest/conversations: validation, redaction, the message
        // stored once, and its conversation's windows rebuilt with the turns before it.
        const report = await this.ingest.ingestConversations([record]);
        if (report.failed.length > 0) {
          throw new WebhookPayloadError(`message rejected by ingest: ${report.failed[0].error}`);
        }
        // A new message moves the contact's last_seen_at: drop any cached live copy. A cache
        // that refuses only leaves last_seen_at stale for its TTL; retrying a stored message
        // through a long outage would dead-letter it, so this one failure is tolerated.
        await this.contacts.invalidate(record.contact_uid).catch(() => undefined);
        break;
      }
      case 'skip':
        return { outcome: 'skipped', type };
    }
    return { outcome: 'processed', type };
  }
}
