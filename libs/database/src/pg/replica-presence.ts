import { randomInt } from 'node:crypto';

import { Logger } from '@nestjs/common';
import { Client } from 'pg';

/** Wait before a lost presence session is opened again. */
const RECONNECT_MS = 1_000;

/**
 * This process's presence on the server: a random replica id, held as a session advisory
 * lock (`scope`, id) on a connection of its own for the life of the process. Another replica
 * can tell whether this one is alive without any clock: `pg_try_advisory_xact_lock(scope,
 * id)` fails while the lock is held and succeeds once the process is gone, because the
 * server drops a session's locks when its connection ends (a `kill -9` included). Work this
 * process leases (webhook events) is tagged with the id, so a dead holder's leases are taken
 * over at once instead of when they time out.
 */
export class ReplicaPresence {
  readonly id = randomInt(1, 2 ** 31 - 1);
  private readonly logger = new Logger(ReplicaPresence.name);
  private client?: Client;
  private stopped = false;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly url: string,
    private readonly scope: number,
  ) {}

  /** Takes the lock; a failure is retried in the background (until then we look absent). */
  async start(): Promise<void> {
    try {
      await this.hold();
    } catch (error) {
      this.retry(error);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async hold(): Promise<void> {
    const client = new Client({
      connectionString: this.url,
      application_name: 'context-bridge-presence',
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    await client.connect();
    await client.query('SELECT pg_advisory_lock($1::int, $2::int)', [this.scope, this.id]);
    if (this.stopped) {
      await client.end();
      return;
    }
    this.client = client;
  }

  private lost(client: Client, error?: Error): void {
    if (this.stopped || this.client !== client) {
      return;
    }
    this.client = undefined;
    client.end().catch(() => undefined);
    this.retry(error);
  }

  private retry(error: unknown): void {
    if (this.stopped) {
      return;
    }
    // The error class only: a driver message may quote the connection string.
    const reason = (error as { code?: string; name?: string } | undefined)?.code ?? 'closed';
    this.logger.warn(`replica presence lost (${reason}); retrying`);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.hold().catch((e: unknown) => this.retry(e));
    }, RECONNECT_MS);
    this.timer.unref();
  }
}
