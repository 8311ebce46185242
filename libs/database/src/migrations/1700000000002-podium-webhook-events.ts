import { type Migration } from './migration';

/**
 * The inbox of Podium webhook deliveries: each event is stored here before Podium gets its
 * 2xx, so a crash after the acknowledgement loses nothing, and the primary key on Podium's
 * event id turns redeliveries into no-ops. A background worker drains it with leases
 * (`locked_until`), bounded retries (`attempts`, `next_attempt_at`) and a dead letter
 * (`failed_at`). `payload` is cleared once an event is processed: the inbox keeps ids for
 * deduplication, not customer text.
 */
export const podiumWebhookEvents: Migration = {
  name: 'PodiumWebhookEvents1700000000002',
  up: (tx) =>
    tx.exec(`
      CREATE TABLE podium_webhook_events (
        event_id text PRIMARY KEY,
        type text NOT NULL,
        payload jsonb,
        received_at timestamptz NOT NULL DEFAULT now(),
        attempts int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        locked_until timestamptz,
        processed_at timestamptz,
        failed_at timestamptz,
        last_error text);
      -- Only pending rows are ever scanned by the worker; the index stays as small as the backlog.
      CREATE INDEX podium_webhook_events_due ON podium_webhook_events (next_attempt_at)
        WHERE processed_at IS NULL AND failed_at IS NULL`),
};
