import { type Migration } from './migration';

/**
 * Three fixes from the issue-19 audit, one schema step:
 * - `podium_contact_tombstones.event_at`: when the deletion (or merge) happened, so a
 *   tombstone only drops messages written before it, and a later `contact.created` /
 *   `contact.updated` for the same id lifts it. Existing tombstones take their record time.
 * - `podium_webhook_events.lease_token`: which claim holds an event's lease, so a worker
 *   whose lease ran out (and was taken over by another replica) cannot process or settle it.
 * - `podium_credentials`: Podium's rotated refresh token, AES-256-GCM encrypted by the
 *   service (never plain text), with a hash of the configured token it descends from, so a
 *   newly configured token wins over one rotated from an older configuration.
 */
export const webhookLeasesTombstoneTimesPodiumCredentials: Migration = {
  name: 'WebhookLeasesTombstoneTimesPodiumCredentials1700000000006',
  up: (tx) =>
    tx.exec(`
      ALTER TABLE podium_contact_tombstones ADD COLUMN event_at timestamptz;
      UPDATE podium_contact_tombstones SET event_at = recorded_at;
      -- A replica still on the previous version (rolling deploy) inserts without it.
      ALTER TABLE podium_contact_tombstones ALTER COLUMN event_at SET DEFAULT now(),
        ALTER COLUMN event_at SET NOT NULL;
      ALTER TABLE podium_webhook_events ADD COLUMN lease_token text;
      CREATE TABLE podium_credentials (
        name text PRIMARY KEY,
        seed_sha256 text NOT NULL,
        ciphertext text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now())`),
};
