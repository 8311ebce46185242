import { type Database, DatabaseUnavailableError } from '@app/database';
import { Logger } from '@nestjs/common';
import { Registry } from 'prom-client';

import { strictDouble } from '../../test/support/doubles';
import { type AppConfig } from '../config/app-config';
import { type MetricsService } from '../metrics/metrics.service';
import { type ContactTombstones } from '../relational/contact-tombstones';
import { type ClaimedEvent, type Lease, type WebhookInbox } from '../relational/webhook-inbox';
import { WebhookPayloadError } from './podium-events';
import { WebhookMetrics } from './webhook-metrics';
import { type ProcessResult, type WebhookProcessor } from './webhook-processor';
import { WebhookWorker, WORKER } from './webhook-worker';

type State = 'pending' | 'leased' | 'done' | 'dead';

/**
 * The inbox's contract in memory: claims lease pending rows; retries are due at once. The
 * rows change synchronously, like single-statement SQL updates.
 */
class MemoryInbox {
  readonly ready = true;
  readonly rows = new Map<
    string,
    { state: State; attempts: number; error?: string; token?: string; payload: boolean }
  >();
  readonly retryDelays: number[] = [];
  released: string[] = [];
  redactedAfterHours: number[] = [];
  private claims = 0;

  add(id: string): void {
    this.rows.set(id, { state: 'pending', attempts: 0, payload: true });
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  claim(limit: number): Promise<ClaimedEvent[]> {
    const token = `claim-${++this.claims}`;
    const due = [...this.rows.entries()].filter(([, r]) => r.state === 'pending').slice(0, limit);
    return Promise.resolve(
      due.map(([id, r]) => {
        Object.assign(r, { state: 'leased', token, attempts: r.attempts + 1 });
        return {
          event_id: id,
          type: 'contact.updated',
          payload: { data: { after: { uid: 'ctc' } } },
          attempts: r.attempts,
          received_at: new Date(),
          lease_token: token,
        };
      }),
    );
  }
  /** Another replica takes the event over once its lease ran out. */
  steal(id: string): void {
    Object.assign(this.rows.get(id)!, { token: 'other-replica' });
  }
  renew(lease: Lease): Promise<boolean> {
    const row = this.rows.get(lease.event_id)!;
    return Promise.resolve(row.state === 'leased' && row.token === lease.lease_token);
  }
  markProcessed(lease: Lease): Promise<void> {
    return this.set(lease, { state: 'done', payload: false });
  }
  scheduleRetry(lease: Lease, error: string, delayMs: number): Promise<void> {
    this.retryDelays.push(delayMs);
    return this.set(lease, { state: 'pending', error });
  }
  markFailed(lease: Lease, error: string, keepPayload: boolean): Promise<void> {
    return this.set(lease, { state: 'dead', error, payload: keepPayload });
  }
  release(leases: Lease[]): Promise<void> {
    this.released = leases.map((l) => l.event_id);
    leases.forEach((l) => void this.set(l, { state: 'pending' }));
    return Promise.resolve();
  }
  purgeProcessed(): Promise<number> {
    return Promise.resolve(0);
  }
  /** What a process killed while it held a lease leaves behind; taken back at start. */
  releaseOrphanedLeases(): Promise<number> {
    const orphans = [...this.rows.values()].filter((r) => r.state === 'leased');
    orphans.forEach((r) => (r.state = 'pending'));
    return Promise.resolve(orphans.length);
  }
  redactDeadLetters(hours: number): Promise<number> {
    this.redactedAfterHours.push(hours);
    return Promise.resolve(0);
  }
  private set(lease: Lease, fields: Partial<{ state: State; error: string; payload: boolean }>) {
    const row = this.rows.get(lease.event_id)!;
    if (row.token === lease.lease_token) {
      Object.assign(row, fields);
    }
    return Promise.resolve();
  }
}

describe('WebhookWorker', () => {
  let inbox: MemoryInbox;
  let process: jest.Mock<Promise<ProcessResult>, [ClaimedEvent, AbortSignal]>;
  let purgeExpired: jest.Mock;
  let sut: WebhookWorker;

  beforeAll(() => {
    Logger.overrideLogger(false);
  });
  afterAll(() => {
    Logger.overrideLogger(true);
  });
  beforeEach(() => {
    inbox = new MemoryInbox();
    process = jest.fn();
    purgeExpired = jest.fn().mockResolvedValue(0);
    sut = worker(168);
  });
  const worker = (deadLetterRetentionHours: number) =>
    new WebhookWorker(
      strictDouble<WebhookInbox>(inbox),
      strictDouble<WebhookProcessor>({ process }),
      new WebhookMetrics({ registry: new Registry() } as MetricsService),
      strictDouble<ContactTombstones>({ purgeExpired }),
      { webhooks: { deadLetterRetentionHours } } as AppConfig,
      strictDouble<Database>({
        whileLeading: async <T>(_name: string, work: (signal: AbortSignal) => Promise<T>) => ({
          ran: true as const,
          value: await work(new AbortController().signal),
        }),
      }),
    );
  afterEach(() => jest.useRealTimers());

  it('processes every pending event in order and marks it done', async () => {
    ['e1', 'e2', 'e3'].forEach((id) => inbox.add(id));
    process.mockResolvedValue({ outcome: 'processed', type: 'contact.updated' });
    sut.kick();
    await sut.idle();
    expect(process.mock.calls.map(([e]) => e.event_id)).toEqual(['e1', 'e2', 'e3']);
    expect([...inbox.rows.values()].map((r) => r.state)).toEqual(['done', 'done', 'done']);
  });

  it('at start takes back the leases a killed process held, and processes their events', async () => {
    inbox.add('e1');
    await inbox.claim(1); // leased by the process that was killed
    process.mockResolvedValue({ outcome: 'processed', type: 'contact.updated' });
    sut.onApplicationBootstrap();
    for (let i = 0; i < 10 && process.mock.calls.length === 0; i++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    await sut.idle();
    await sut.beforeApplicationShutdown();
    expect(inbox.rows.get('e1')).toMatchObject({ state: 'done', attempts: 2 });
  });

  it('retries a failing event with backoff, then dead-letters it after maxAttempts', async () => {
    inbox.add('e1');
    process.mockRejectedValue(Object.assign(new Error('db said: Pat (555) 0100'), { code: 'X1' }));
    sut.kick();
    await sut.idle();
    expect(process).toHaveBeenCalledTimes(WORKER.maxAttempts);
    expect(inbox.retryDelays).toEqual([
      1_000,
      5_000,
      30_000,
      120_000,
      ...Array<number>(WORKER.maxAttempts - 5).fill(600_000),
    ]);
    // Long enough to outlast a dependency outage of two hours.
    expect(inbox.retryDelays.reduce((a, b) => a + b, 0)).toBeGreaterThan(2 * 3_600_000);
    const row = inbox.rows.get('e1')!;
    expect(row.state).toBe('dead');
    // An unknown error's message may quote customer data: only its name and code are kept.
    expect(row.error).toBe('Error (X1)');
  });

  it('dead-letters a payload error at once: a retry would fail the same way', async () => {
    inbox.add('e1');
    process.mockRejectedValue(new WebhookPayloadError('contact.merged without both uids'));
    sut.kick();
    await sut.idle();
    expect(process).toHaveBeenCalledTimes(1);
    expect(inbox.rows.get('e1')).toMatchObject({
      state: 'dead',
      error: 'WebhookPayloadError: contact.merged without both uids',
    });
  });

  it('skips an event whose lease another replica took while it waited in the batch', async () => {
    ['e1', 'e2', 'e3'].forEach((id) => inbox.add(id));
    process.mockImplementation((e) => {
      if (e.event_id === 'e1') {
        inbox.steal('e2'); // e1 was slow: e2's lease ran out and another replica claimed it
      }
      return Promise.resolve({ outcome: 'processed', type: 'contact.updated' });
    });
    sut.kick();
    await sut.idle();
    expect(process.mock.calls.map(([e]) => e.event_id)).toEqual(['e1', 'e3']);
    // Ours are settled; the stolen one is left to its new holder.
    expect(inbox.rows.get('e2')).toMatchObject({ state: 'leased', token: 'other-replica' });
    expect(inbox.rows.get('e3')!.state).toBe('done');
  });

  it('aborts a timed-out process through its signal and retries the event', async () => {
    jest.useFakeTimers();
    inbox.add('e1');
    let signal: AbortSignal | undefined;
    process.mockImplementation((_e, s) => {
      signal ??= s; // the first attempt's (the memory inbox makes the retry due at once)
      return new Promise(() => undefined); // hangs until aborted
    });
    sut.kick();
    await jest.advanceTimersByTimeAsync(0);
    expect(process).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(WORKER.eventTimeoutMs - 1);
    expect(signal?.aborted).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(signal?.aborted).toBe(true);
    expect(inbox.rows.get('e1')).toMatchObject({
      error: `Timeout: no result after ${WORKER.eventTimeoutMs} ms`,
    });
    expect(inbox.retryDelays).toEqual([WORKER.backoffMs[0]]);
    expect(WORKER.leaseMs).toBeGreaterThan(WORKER.eventTimeoutMs);
    const shutdown = sut.beforeApplicationShutdown(); // the retry hangs too
    await jest.advanceTimersByTimeAsync(WORKER.shutdownGraceMs);
    await shutdown;
  });

  it('keeps a dead letter’s payload for the retention, and has it redacted after', async () => {
    inbox.add('e1');
    process.mockRejectedValue(new WebhookPayloadError('bad'));
    sut.kick();
    await sut.idle();
    expect(inbox.rows.get('e1')).toMatchObject({ state: 'dead', payload: true });
    expect(inbox.redactedAfterHours).toEqual([168]);
    expect(purgeExpired).toHaveBeenCalledTimes(1);

    // Retention 0: the payload goes when the event is dead-lettered.
    inbox = new MemoryInbox();
    inbox.add('e2');
    sut = worker(0);
    sut.kick();
    await sut.idle();
    expect(inbox.rows.get('e2')).toMatchObject({ state: 'dead', payload: false });
  });

  it('after a drain the database interrupted, hands back its leases and goes on at once', async () => {
    ['e1', 'e2'].forEach((id) => inbox.add(id));
    process.mockResolvedValue({ outcome: 'processed', type: 'contact.updated' });
    const settle = jest
      .spyOn(inbox, 'markProcessed')
      .mockRejectedValueOnce(new DatabaseUnavailableError('57P01'));
    sut.kick();
    await sut.idle();
    expect([...inbox.rows.values()].map((r) => r.state)).toEqual(['leased', 'leased']);
    settle.mockRestore();
    sut.kick(); // the next poll, the database back
    await sut.idle();
    expect(inbox.released.sort()).toEqual(['e1', 'e2']);
    expect([...inbox.rows.values()].map((r) => r.state)).toEqual(['done', 'done']);
  });

  it('coalesces kicks that arrive while a drain runs, and picks up the new event', async () => {
    inbox.add('e1');
    process.mockImplementation((e) => {
      if (e.event_id === 'e1') {
        inbox.add('e2');
        sut.kick();
      }
      return Promise.resolve({ outcome: 'processed', type: 'contact.updated' });
    });
    sut.kick();
    await sut.idle();
    expect(process.mock.calls.map(([e]) => e.event_id)).toEqual(['e1', 'e2']);
  });

  it('on shutdown waits a grace period for a stuck event, then hands its lease back', async () => {
    jest.useFakeTimers();
    inbox.add('e1');
    inbox.add('e2');
    process.mockImplementation(() => new Promise(() => undefined)); // hangs
    sut.kick();
    await jest.advanceTimersByTimeAsync(0);
    expect(process).toHaveBeenCalledTimes(1);

    let done = false;
    const shutdown = sut.beforeApplicationShutdown().then(() => (done = true));
    await jest.advanceTimersByTimeAsync(WORKER.shutdownGraceMs - 1);
    expect(done).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await shutdown;
    // Both leased events go back; the next start processes them first.
    expect(inbox.released.sort()).toEqual(['e1', 'e2']);
    expect(inbox.rows.get('e1')!.state).toBe('pending');
    sut.kick(); // stopped: no new work
    expect(process).toHaveBeenCalledTimes(1);
  });

  it('logs a database outage once, not at every poll, and says when it is over', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const claim = jest.spyOn(inbox, 'claim');
    claim.mockRejectedValue(new DatabaseUnavailableError('ECONNREFUSED'));
    for (let poll = 0; poll < 5; poll++) {
      sut.kick();
      await sut.idle();
    }
    expect(claim).toHaveBeenCalledTimes(5);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(/paused: The database is unavailable \(ECONNREFUSED\)/);
    expect(error).not.toHaveBeenCalled();

    claim.mockRestore();
    sut.kick();
    await sut.idle();
    sut.kick();
    await sut.idle();
    expect(log.mock.calls.filter(([m]) => /resumed/.test(String(m)))).toHaveLength(1);
    [warn, log, error].forEach((spy) => spy.mockRestore());
  });
});
