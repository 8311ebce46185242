import { createHmac, randomUUID } from 'node:crypto';

/**
 * Podium's webhook deliveries, as Podium sends them (docs.podium.com: "Verify Webhook
 * Signatures", "The message object", "Contact event types"). Test code only; written
 * independently of src/webhooks so a bug in the verifier cannot be mirrored here.
 *
 * - Body: `{ "data": ..., "metadata": { "event_type", "event_uid", "version" } }`. The
 *   documented example spells `event_type` and `version: "2021.04.01"`; the event uid is
 *   not documented and is sent here in the same spelling.
 * - Headers: `podium-timestamp` (epoch milliseconds, as in the docs' example) and
 *   `podium-signature`: lowercase hex HMAC-SHA256, keyed by the webhook secret, over
 *   `<timestamp>.<raw body>`.
 */

export const PODIUM_EVENT_VERSION = '2021.04.01';

export interface PodiumEventEnvelope {
  data: unknown;
  metadata: { event_type: string; event_uid: string; version: string };
}

/** One event as Podium delivers it; `eventUid` stays the same across redeliveries. */
export function podiumEvent(
  eventType: string,
  data: unknown,
  eventUid: string = randomUUID(),
): PodiumEventEnvelope {
  return {
    data,
    metadata: { event_type: eventType, event_uid: eventUid, version: PODIUM_EVENT_VERSION },
  };
}

/** A contact object in Podium's shape (`channels` of PHONE / EMAIL, attributes, tags...). */
export function podiumContact(
  uid: string,
  fields: { name?: string; phone?: string; email?: string; locationUid?: string } = {},
) {
  const now = '2026-11-30T10:00:00Z';
  const channel = (type: 'PHONE' | 'EMAIL', identifier: string) => ({
    type,
    identifier,
    label: type === 'PHONE' ? 'mobile' : 'personal',
    transactionalOptedOutAt: null,
    createdAt: now,
    updatedAt: now,
  });
  return {
    uid,
    name: fields.name ?? 'Pat Example',
    channels: [
      ...(fields.phone ? [channel('PHONE', fields.phone)] : []),
      ...(fields.email ? [channel('EMAIL', fields.email)] : []),
    ],
    attributes: [],
    tags: [],
    address: {
      addressLine1: null,
      addressLine2: null,
      city: null,
      state: null,
      postalCode: null,
      country: null,
    },
    organization: { uid: '00000000-0000-0000-0000-0000000000aa' },
    locations: fields.locationUid ? [{ uid: fields.locationUid }] : [],
    createdAt: now,
    updatedAt: now,
  };
}

/** `data` of a contact event: `before` and/or `after` contact objects plus `errors`. */
export function contactEventData(sides: {
  before?: ReturnType<typeof podiumContact>;
  after?: ReturnType<typeof podiumContact>;
}) {
  return { before: sides.before ?? null, after: sides.after ?? null, errors: [] };
}

export interface PodiumMessageFields {
  uid?: string;
  body: string;
  contactUid: string;
  conversationUid: string;
  locationUid?: string;
  /** Podium channel type: sms, email, phone, facebook, ... */
  channel?: string;
  createdAt?: string;
}

/** A message object (the `data` of `message.received` / `message.sent`). */
export function podiumMessage(fields: PodiumMessageFields) {
  const uid = fields.uid ?? randomUUID();
  const createdAt = fields.createdAt ?? new Date().toISOString();
  return {
    uid,
    body: fields.body,
    createdAt,
    updatedAt: createdAt,
    items: [
      {
        uid: randomUUID(),
        type: 'text',
        body: fields.body,
        sendBody: fields.body,
        createdAt,
        deliveryStatus: 'delivered',
        sourceType: 'podium',
        attachmentUrl: null,
        attachmentContentType: null,
        encryptedAt: null,
      },
    ],
    contact: { uid: fields.contactUid, name: 'Pat Example', externalIdentifier: null },
    sender: { uid: '00000000-0000-0000-0000-0000000000bb' },
    conversation: {
      uid: fields.conversationUid,
      channel: { type: fields.channel ?? 'sms', identifier: '+15550100' },
    },
    location: {
      uid: fields.locationUid ?? '00000000-0000-0000-0000-0000000000cc',
      organizationUid: '00000000-0000-0000-0000-0000000000aa',
    },
  };
}

/** Podium's signing: hex HMAC-SHA256 of `<timestamp>.<body>` keyed by the webhook secret. */
export function signPodiumDelivery(
  secret: string,
  body: string,
  timestampMs: number = Date.now(),
): { 'podium-timestamp': string; 'podium-signature': string } {
  const timestamp = String(timestampMs);
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return { 'podium-timestamp': timestamp, 'podium-signature': signature };
}

export interface DeliveryResult {
  status: number;
  body: Record<string, unknown>;
  /** Wall time from send to the full response. */
  elapsedMs: number;
}

/** Posts raw text with the given headers, as Podium's delivery would. */
export async function postDelivery(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<DeliveryResult> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
    elapsedMs: performance.now() - started,
  };
}

/**
 * Serialises, signs and delivers one event to `url` (e.g. `${app}/webhooks/podium`).
 * Returns the exact body and headers too, so a test can replay the captured delivery.
 */
export async function deliverPodiumEvent(
  url: string,
  secret: string,
  event: PodiumEventEnvelope,
  timestampMs: number = Date.now(),
): Promise<DeliveryResult & { sent: { body: string; headers: Record<string, string> } }> {
  const body = JSON.stringify(event);
  const headers = signPodiumDelivery(secret, body, timestampMs);
  return { ...(await postDelivery(url, body, headers)), sent: { body, headers } };
}
