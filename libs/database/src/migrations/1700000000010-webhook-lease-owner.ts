import { type Migration } from './migration';

/**
 * `podium_webhook_events.lease_owner`: the replica id (its presence advisory lock) of the
 * process that holds an event's lease, so another replica can take the lease over as soon
 * as that process is gone instead of when the lease times out.
 */
export const webhookLeaseOwner: Migration = {
  name: 'WebhookLeaseOwner1700000000010',
  up: (tx) => tx.exec(`ALTER TABLE podium_webhook_events ADD COLUMN lease_owner integer`),
};
