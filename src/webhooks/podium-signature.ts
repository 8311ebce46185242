import { createHmac, timingSafeEqual } from 'node:crypto';

/** Podium's delivery headers (docs.podium.com, "Verify Webhook Signatures"). */
export const PODIUM_TIMESTAMP_HEADER = 'podium-timestamp';
export const PODIUM_SIGNATURE_HEADER = 'podium-signature';

/**
 * How far a delivery's timestamp may be from our clock, either way, by default
 * (PODIUM_WEBHOOK_TOLERANCE_MS). A captured delivery
 * replayed later than this is refused even though its signature is genuine; redeliveries
 * inside the window are caught by the inbox's event-id dedupe instead.
 */
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

/** Stable machine codes for a refused delivery (all answered with 401). */
export type SignatureFailure =
  'webhook_signature_missing' | 'webhook_signature_invalid' | 'webhook_timestamp_stale';

export type SignatureCheck = { ok: true } | { ok: false; code: SignatureFailure; message: string };

export interface SignedDelivery {
  secret: string;
  /** The request body exactly as received: the MAC covers these bytes, not re-serialised JSON. */
  rawBody: Buffer;
  timestamp?: string;
  signature?: string;
}

/** A SHA-256 MAC is 32 bytes: 64 hex characters, or 43–44 in base64. */
const MAC_BYTES = 32;

/**
 * Podium's documented timestamp is epoch milliseconds ("1620771659663"). Ten digits or
 * fewer can only be epoch seconds for any date before 2286, so those are read as seconds.
 */
export function parsePodiumTimestamp(value: string): number | undefined {
  if (!/^\d{1,16}$/.test(value)) {
    return undefined;
  }
  const n = Number(value);
  return value.length <= 10 ? n * 1000 : n;
}

/**
 * Decodes the signature header. Podium's docs give the algorithm but not the encoding;
 * hex is the common one (and what the docs' suggested HMAC tool prints), base64 is
 * accepted too. Both decode to the same 32 MAC bytes, so accepting both weakens nothing.
 */
function decodeSignature(value: string): Buffer | undefined {
  const s = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(s)) {
    return Buffer.from(s, 'hex');
  }
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(s)) {
    const bytes = Buffer.from(s, 'base64');
    return bytes.length === MAC_BYTES ? bytes : undefined;
  }
  return undefined;
}

/** HMAC-SHA256 keyed by the webhook secret over `<timestamp>.<raw body>`. */
export function podiumSignatureMac(secret: string, timestamp: string, rawBody: Buffer): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
}

/**
 * Verifies one delivery as Podium signs it: `podium-signature` must be the HMAC-SHA256 of
 * `podium-timestamp` + "." + the raw body, keyed by the webhook's secret. The comparison
 * is constant-time. The MAC is checked before the clock, so `stale` is only ever reported
 * for an authentic delivery (a replay, or clock skew), never for a forgery.
 */
export function verifyPodiumSignature(
  delivery: SignedDelivery,
  now = Date.now(),
  toleranceMs = SIGNATURE_TOLERANCE_MS,
): SignatureCheck {
  const { timestamp, signature } = delivery;
  if (!timestamp || !signature) {
    return {
      ok: false,
      code: 'webhook_signature_missing',
      message: `Both ${PODIUM_TIMESTAMP_HEADER} and ${PODIUM_SIGNATURE_HEADER} headers are required.`,
    };
  }
  const sentAt = parsePodiumTimestamp(timestamp);
  const provided = decodeSignature(signature);
  const expected = podiumSignatureMac(delivery.secret, timestamp, delivery.rawBody);
  if (sentAt === undefined || !provided || !timingSafeEqual(provided, expected)) {
    return {
      ok: false,
      code: 'webhook_signature_invalid',
      message: 'The signature does not match this body and timestamp.',
    };
  }
  if (Math.abs(now - sentAt) > toleranceMs) {
    return {
      ok: false,
      code: 'webhook_timestamp_stale',
      message: `The delivery was signed more than ${toleranceMs / 1000} s from now; replays are refused.`,
    };
  }
  return { ok: true };
}
