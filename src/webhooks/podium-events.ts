import { createHash } from 'node:crypto';

import { InvalidInputError } from '@app/common';
import { isLabelWord } from '@app/redaction';

/**
 * Podium webhook payloads, as far as this service reads them. Podium wraps every event as
 * `{ data, metadata }` (docs.podium.com, "Verify Webhook Signatures"); `data` is a message
 * object for `message.*` and `{ before, after, errors }` around contact objects for
 * `contact.*`. Podium's fields are camelCase; the one documented envelope example spells
 * `metadata.event_type`, so both spellings are read. Everything is optional here: the
 * payload is untrusted input until mapped.
 */
export interface PodiumEnvelope {
  data?: unknown;
  metadata?: {
    eventType?: unknown;
    event_type?: unknown;
    eventUid?: unknown;
    event_uid?: unknown;
    version?: unknown;
  };
}

export interface PodiumContactRef {
  uid?: unknown;
  channels?: Array<{ identifier?: unknown } | null> | null;
  phoneNumbers?: unknown[] | null;
  emails?: unknown[] | null;
}

export interface PodiumContactEventData {
  before?: PodiumContactRef | null;
  after?: PodiumContactRef | null;
  errors?: unknown[];
}

export interface PodiumMessageEventData {
  uid?: unknown;
  body?: unknown;
  createdAt?: unknown;
  items?: Array<{ body?: unknown; createdAt?: unknown }>;
  /** Deprecated by Podium in the REST API, still sent in webhooks: the only contact link. */
  contact?: { uid?: unknown };
  conversation?: { uid?: unknown; channel?: { type?: unknown; identifier?: unknown } };
  location?: { uid?: unknown };
}

/** The event types this service acts on; anything else is acknowledged and dropped. */
export const HANDLED_EVENT_TYPES = [
  'contact.created',
  'contact.updated',
  'contact.merged',
  'contact.deleted',
  'message.received',
  'message.sent',
] as const;
export type HandledEventType = (typeof HANDLED_EVENT_TYPES)[number];

export const isHandledEventType = (type: string): type is HandledEventType =>
  (HANDLED_EVENT_TYPES as readonly string[]).includes(type);

/** A verified delivery, parsed just enough to store it. */
export interface ParsedDelivery {
  eventId: string;
  type: string;
  envelope: PodiumEnvelope;
}

/** The longest text one ingest record accepts (ConversationMessageDto). */
const MAX_TEXT = 20_000;

/**
 * The first {@link MAX_TEXT} units, never ending on half an emoji: ingest refuses a lone
 * surrogate, and the whole message would be dead-lettered for the cut.
 */
function capText(text: string): string {
  const end = /[\ud800-\udbff]/.test(text.charAt(MAX_TEXT - 1)) ? MAX_TEXT - 1 : MAX_TEXT;
  return text.slice(0, end);
}

/**
 * A channel type as a word ("Google Business" reads `google_business`), or `unknown`:
 * anything else would leave as written with every excerpt.
 */
function channelWord(type: string | undefined): string {
  const word = type?.toLowerCase().replace(/\s+/g, '_');
  return isLabelWord(word) ? word : 'unknown';
}

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim().length > 0 ? value.trim() : undefined;

/**
 * Reads the envelope of a verified delivery. The event id is Podium's event uid when the
 * metadata carries one; otherwise a hash of the raw body, which a redelivery of the same
 * event repeats byte for byte.
 */
export function parseDelivery(rawBody: Buffer): ParsedDelivery {
  let envelope: unknown;
  try {
    envelope = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new InvalidInputError('invalid_webhook_payload', 'The webhook body is not JSON.');
  }
  if (envelope === null || typeof envelope !== 'object' || Array.isArray(envelope)) {
    throw new InvalidInputError('invalid_webhook_payload', 'The webhook body is not an object.');
  }
  const metadata = (envelope as PodiumEnvelope).metadata;
  const type = str(metadata?.eventType) ?? str(metadata?.event_type);
  if (!type || type.length > 64) {
    throw new InvalidInputError(
      'invalid_webhook_payload',
      'The webhook body has no metadata.eventType.',
    );
  }
  const uid = str(metadata?.eventUid) ?? str(metadata?.event_uid);
  const eventId =
    uid && uid.length <= 200 ? uid : `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
  return { eventId, type, envelope: envelope };
}

/** The payload can never be processed (a retry would fail the same way). */
export class WebhookPayloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** One message as `/ingest/conversations` takes it. */
export interface MessageRecord {
  /** Podium's message uid: a redelivery or a later export with it stores the message once. */
  message_uid?: string;
  conversation_uid: string;
  contact_uid: string;
  location_uid?: string;
  channel: string;
  occurred_at: string;
  sender: 'customer' | 'agent';
  text: string;
}

/** What one event asks of the service. */
export type WebhookAction =
  | { kind: 'invalidate'; contactUids: string[] }
  | { kind: 'delete'; contactUids: string[] }
  | { kind: 'merge'; fromContactUid: string; toContactUid: string; contactUids: string[] }
  | { kind: 'ingest'; record: MessageRecord }
  | { kind: 'skip'; reason: string };

/**
 * What history and the live cache may be keyed by for a contact. With the `api` CRM,
 * callers name contacts by phone or email (Podium looks contacts up by those, not by its
 * uid), so one contact can be stored under several ids.
 */
export type ContactKeying = 'podium_uid' | 'channel_identifier';

/** Every id of the contacts in a contact event: uid, channel identifiers, phones, emails. */
function contactIds(data: PodiumContactEventData): string[] {
  const ids = [data.before, data.after].flatMap((c) => [
    c?.uid,
    ...(c?.channels ?? []).map((channel) => channel?.identifier),
    ...(c?.phoneNumbers ?? []),
    ...(c?.emails ?? []),
  ]);
  return [...new Set(ids.map(str).filter((id): id is string => id !== undefined))];
}

function messageAction(
  type: 'message.received' | 'message.sent',
  data: PodiumMessageEventData,
  receivedAt: Date,
  keying: ContactKeying,
): WebhookAction {
  const contact =
    (keying === 'channel_identifier' ? str(data.conversation?.channel?.identifier) : undefined) ??
    str(data.contact?.uid);
  const conversation = str(data.conversation?.uid);
  if (!contact || !conversation) {
    throw new WebhookPayloadError(`${type} without contact.uid or conversation.uid`);
  }
  // `body` is the message text; items carry the same text plus attachments, so they are
  // only read when the body is empty. Attachment-only messages have no text to retrieve.
  const text =
    str(data.body) ??
    (data.items ?? [])
      .map((item) => str(item?.body))
      .filter(Boolean)
      .join('\n');
  if (!text) {
    return { kind: 'skip', reason: 'message has no text' };
  }
  const occurredAt = str(data.createdAt) ?? str(data.items?.[0]?.createdAt);
  return {
    kind: 'ingest',
    record: {
      message_uid: str(data.uid),
      conversation_uid: conversation,
      contact_uid: contact,
      location_uid: str(data.location?.uid),
      // Held to the ingest rule for channels: it leaves with every excerpt.
      channel: channelWord(str(data.conversation?.channel?.type)),
      occurred_at:
        occurredAt && !Number.isNaN(Date.parse(occurredAt))
          ? new Date(occurredAt).toISOString()
          : receivedAt.toISOString(),
      // Received messages come from the customer; sent ones from the location (an agent).
      sender: type === 'message.received' ? 'customer' : 'agent',
      text: capText(text),
    },
  };
}

/**
 * Maps a stored event to what it asks of the service. Throws WebhookPayloadError when the
 * payload lacks what the action needs, so the worker dead-letters it instead of retrying.
 *
 * For `contact.merged`, Podium documents `before` and `after` contact objects but not which
 * is which in a merge; we read `before` as the contact merged away and `after` as the one
 * that survives (the usual before/after reading).
 */
export function toAction(
  type: HandledEventType,
  data: unknown,
  receivedAt: Date,
  keying: ContactKeying = 'podium_uid',
): WebhookAction {
  if (data === null || typeof data !== 'object') {
    throw new WebhookPayloadError(`${type} without data`);
  }
  switch (type) {
    case 'contact.created':
    case 'contact.updated':
    case 'contact.deleted': {
      // Every id, whichever the history was stored under: a delete must leave nothing.
      const ids = contactIds(data);
      if (ids.length === 0) {
        throw new WebhookPayloadError(`${type} without a contact uid`);
      }
      return { kind: type === 'contact.deleted' ? 'delete' : 'invalidate', contactUids: ids };
    }
    case 'contact.merged': {
      const from = str((data as PodiumContactEventData).before?.uid);
      const to = str((data as PodiumContactEventData).after?.uid);
      if (!from || !to) {
        throw new WebhookPayloadError(`${type} without both before.uid and after.uid`);
      }
      // History keyed by a phone or email stays findable by it; only uid keys move.
      return from === to
        ? { kind: 'invalidate', contactUids: contactIds(data) }
        : { kind: 'merge', fromContactUid: from, toContactUid: to, contactUids: contactIds(data) };
    }
    case 'message.received':
    case 'message.sent':
      return messageAction(type, data, receivedAt, keying);
  }
}
