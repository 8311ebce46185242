import { type PodiumContacts } from '@app/podium';

import { strictDouble } from '../../test/support/doubles';
import { type AppConfig } from '../config/app-config';
import { type ConversationMemory } from '../conversations/conversation-memory.service';
import { type IngestService } from '../ingest/ingest.service';
import { type ContactTombstones, type Tombstone } from '../relational/contact-tombstones';
import { type HistoryTombstones } from '../relational/history-tombstones';
import { type ClaimedEvent } from '../relational/webhook-inbox';
import { WebhookPayloadError } from './podium-events';
import { WebhookProcessor } from './webhook-processor';

const event = (type: string, data: unknown, receivedAt = '2026-12-01T10:00:00Z'): ClaimedEvent => ({
  event_id: 'evt-1',
  type,
  payload: { data, metadata: { eventType: type } },
  attempts: 1,
  received_at: new Date(receivedAt),
  lease_token: 'lease-1',
});

/** `ingestConversations` accepting the one message it is given. */
const oneIngested = () =>
  jest.fn().mockResolvedValue({ received: 1, inserted: 1, skipped: 0, failed: [] });

describe('WebhookProcessor', () => {
  let calls: string[];
  let invalidate: jest.Mock;

  /** In-memory tombstones with the real lookup's semantics (merge chains, deletion times). */
  let graves: Map<string, { into: string | null; at: Date }>;
  const tombstones = strictDouble<ContactTombstones>({
    recordDeleted: (ids: string[], at: Date) => {
      ids.forEach((id) => graves.set(id, { into: null, at }));
      calls.push(`tombstone ${ids.join(',')}`);
      return Promise.resolve();
    },
    recordMerged: (from: string, to: string, at: Date) => {
      graves.set(from, { into: to, at });
      return Promise.resolve();
    },
    lift: (ids: string[], at: Date) => {
      ids
        .filter((id) => graves.get(id)?.into === null && graves.get(id)!.at < at)
        .forEach((id) => graves.delete(id));
      return Promise.resolve(0);
    },
    lookup: (id: string, writtenAt: Date): Promise<Tombstone | undefined> => {
      const grave = graves.get(id);
      if (!grave) {
        return Promise.resolve(undefined);
      }
      if (grave.into === null) {
        return Promise.resolve(writtenAt <= grave.at ? { kind: 'deleted' } : undefined);
      }
      return Promise.resolve({ kind: 'merged', into: grave.into });
    },
  });

  /** Whole-contact forgets (history tombstones), by contact. */
  let forgotten: Map<string, Date>;

  beforeEach(() => {
    forgotten = new Map();
    graves = new Map();
    calls = [];
    invalidate = jest.fn((uid: string) => {
      calls.push(`invalidate ${uid}`);
      return Promise.resolve();
    });
  });

  const build = (
    memory: Partial<Record<keyof ConversationMemory, jest.Mock>> = {},
    ingest: Partial<Record<keyof IngestService, jest.Mock>> = {},
  ) =>
    new WebhookProcessor(
      strictDouble<PodiumContacts>({ invalidate }),
      strictDouble<ConversationMemory>(memory),
      strictDouble<IngestService>(ingest),
      { podium: { provider: 'local' } } as AppConfig,
      tombstones,
      strictDouble<HistoryTombstones>({
        tombstones: (ids: readonly string[]) =>
          Promise.resolve(
            ids
              .filter((id) => forgotten.has(id))
              .map((id) => ({
                contact_uid: id,
                location_uid: '',
                forgotten_at: forgotten.get(id)!,
              })),
          ),
      }),
    );

  it('contact.updated only invalidates the live cache (the store is untouched)', async () => {
    const sut = build();
    await expect(
      sut.process(event('contact.updated', { before: null, after: { uid: 'ctc-a' } })),
    ).resolves.toEqual({ outcome: 'processed', type: 'contact.updated' });
    expect(calls).toEqual(['invalidate ctc-a']);
  });

  it('contact.merged re-keys history, then invalidates both contacts', async () => {
    const reassignContact = jest.fn((from: string, to: string) => {
      calls.push(`reassign ${from}->${to}`);
      return Promise.resolve(3);
    });
    const sut = build({ reassignContact });
    await sut.process(
      event('contact.merged', { before: { uid: 'ctc-dup' }, after: { uid: 'ctc-keep' } }),
    );
    expect(calls).toEqual([
      'reassign ctc-dup->ctc-keep',
      'invalidate ctc-dup',
      'invalidate ctc-keep',
    ]);
  });

  it('contact.deleted removes stored history and invalidates', async () => {
    const deleteContact = jest.fn((uid: string) => {
      calls.push(`delete ${uid}`);
      return Promise.resolve(2);
    });
    const sut = build({ forgetContact: deleteContact });
    await sut.process(event('contact.deleted', { before: { uid: 'ctc-gone' }, after: null }));
    expect(calls).toEqual(['tombstone ctc-gone', 'delete ctc-gone', 'invalidate ctc-gone']);
  });

  it.each([
    ['contact.deleted', { before: { uid: 'ctc-gone' }, after: null }],
    ['contact.merged', { before: { uid: 'ctc-dup' }, after: { uid: 'ctc-keep' } }],
    ['contact.updated', { before: null, after: { uid: 'ctc-a' } }],
  ])(
    '%s fails (to be retried) when the live cache refuses the invalidation',
    async (type, data) => {
      const refused = new Error('cache refused');
      invalidate.mockRejectedValue(refused);
      const sut = build({
        forgetContact: jest.fn().mockResolvedValue({}),
        reassignContact: jest.fn().mockResolvedValue(undefined),
      });
      await expect(sut.process(event(type, data))).rejects.toBe(refused);
    },
  );

  it('on arrival, a contact event drops the cached contacts and touches nothing else', async () => {
    const sut = build();
    const deleted = event('contact.deleted', { before: { uid: 'ctc-gone' }, after: null });
    await sut.invalidateOnArrival('contact.deleted', deleted.payload!);
    const message = event('message.received', { body: 'hi' });
    await sut.invalidateOnArrival('message.received', message.payload!);
    await sut.invalidateOnArrival('contact.updated', { data: null, metadata: {} });
    expect(calls).toEqual(['invalidate ctc-gone']);
  });

  it('on arrival, hands a message’s date to the future-date check, and only a readable message’s', () => {
    const refuseFutureDates = jest.fn();
    const sut = build({ refuseFutureDates });
    const data = {
      body: 'from the year 2999',
      createdAt: '2999-01-01T00:00:00Z',
      contact: { uid: 'ctc-f' },
      conversation: { uid: 'conv-f', channel: { type: 'sms' } },
    };
    sut.refuseOnArrival('message.sent', event('message.sent', data).payload!);
    expect(refuseFutureDates).toHaveBeenCalledWith([
      expect.objectContaining({ occurred_at: '2999-01-01T00:00:00.000Z', contact_uid: 'ctc-f' }),
    ]);
    // Hostile and odd payloads: the worker dead-letters them; no check, no throw here.
    sut.refuseOnArrival('message.received', { data: null, metadata: {} });
    sut.refuseOnArrival('message.received', event('message.received', { body: 'x' }).payload!);
    sut.refuseOnArrival('contact.deleted', event('contact.deleted', data).payload!);
    expect(refuseFutureDates).toHaveBeenCalledTimes(1);
  });

  it('a message processed after its contact was deleted or merged cannot undo that', async () => {
    const ingestConversations = oneIngested();
    const sut = build(
      {
        forgetContact: jest.fn().mockResolvedValue(0),
        reassignContact: jest.fn().mockResolvedValue(0),
      },
      { ingestConversations },
    );
    const late = (contact: string) =>
      event('message.received', {
        body: 'still there?',
        contact: { uid: contact },
        conversation: { uid: 'conv-x', channel: { type: 'sms' } },
      });
    await sut.process(event('contact.deleted', { before: { uid: 'ctc-gone' } }));
    await expect(sut.process(late('ctc-gone'))).resolves.toEqual({
      outcome: 'skipped',
      type: 'message.received',
    });
    expect(ingestConversations).not.toHaveBeenCalled();

    await sut.process(
      event('contact.merged', { before: { uid: 'ctc-dup' }, after: { uid: 'ctc-keep' } }),
    );
    await sut.process(late('ctc-dup'));
    expect(ingestConversations).toHaveBeenCalledWith([
      expect.objectContaining({ contact_uid: 'ctc-keep', text: 'still there?' }),
    ]);
  });

  it('a forgotten contact merged away: its id is not remembered, and its old messages never reach the survivor (old: redirected and stored under it)', async () => {
    const ingestConversations = oneIngested();
    const sut = build({ reassignContact: jest.fn().mockResolvedValue(0) }, { ingestConversations });
    const said = (contact: string, createdAt: string) =>
      event('message.received', {
        body: 'my door code is 4411',
        createdAt,
        contact: { uid: contact },
        conversation: { uid: 'conv-f', channel: { type: 'sms' } },
      });
    // Merged, then forgotten: a message from before the forget, redelivered, is dropped.
    await sut.process(
      event('contact.merged', { before: { uid: 'ctc-a' }, after: { uid: 'ctc-keep' } }),
    );
    forgotten.set('ctc-a', new Date('2026-12-01T09:00:00Z'));
    await expect(sut.process(said('ctc-a', '2026-12-01T08:00:00Z'))).resolves.toMatchObject({
      outcome: 'skipped',
    });
    expect(ingestConversations).not.toHaveBeenCalled();
    // One written after the forget still goes to the survivor.
    await sut.process(said('ctc-a', '2026-12-01T09:30:00Z'));
    expect(ingestConversations).toHaveBeenCalledWith([
      expect.objectContaining({ contact_uid: 'ctc-keep' }),
    ]);
    // Forgotten, then merged: no tombstone names the forgotten id.
    forgotten.set('ctc-b', new Date('2026-12-01T09:00:00Z'));
    await sut.process(
      event('contact.merged', { before: { uid: 'ctc-b' }, after: { uid: 'ctc-keep' } }),
    );
    expect(graves.has('ctc-b')).toBe(false);
  });

  it('a deletion drops only messages written before it; contact.created lifts it for new ones', async () => {
    const ingestConversations = oneIngested();
    const sut = build({ forgetContact: jest.fn().mockResolvedValue(0) }, { ingestConversations });
    const message = (createdAt: string, receivedAt: string) =>
      event(
        'message.received',
        {
          body: 'hello again',
          createdAt,
          contact: { uid: '+15550100' },
          conversation: { uid: 'conv-y', channel: { type: 'sms' } },
        },
        receivedAt,
      );
    await sut.process(
      event('contact.deleted', { before: { uid: '+15550100' } }, '2026-12-01T10:00:00Z'),
    );
    // Written before the deletion, delivered after it (a retry): dropped.
    await expect(
      sut.process(message('2026-12-01T09:59:00Z', '2026-12-01T10:05:00Z')),
    ).resolves.toMatchObject({ outcome: 'skipped' });
    // Written after it: a new conversation, kept.
    await expect(
      sut.process(message('2026-12-02T08:00:00Z', '2026-12-02T08:00:01Z')),
    ).resolves.toMatchObject({ outcome: 'processed' });
    expect(ingestConversations).toHaveBeenCalledTimes(1);

    // A contact.created naming the id after the deletion lifts the tombstone outright.
    await sut.process(
      event('contact.created', { after: { uid: '+15550100' } }, '2026-12-03T00:00:00Z'),
    );
    expect(graves.has('+15550100')).toBe(false);
    // An older contact.updated (delivered late) does not lift a newer deletion.
    await sut.process(
      event('contact.deleted', { before: { uid: '+15550100' } }, '2026-12-04T00:00:00Z'),
    );
    await sut.process(
      event('contact.updated', { after: { uid: '+15550100' } }, '2026-12-03T12:00:00Z'),
    );
    expect(graves.get('+15550100')).toMatchObject({ into: null });
  });

  it('stops between effects once the deadline signal aborts', async () => {
    const sut = build({ forgetContact: jest.fn().mockResolvedValue(0) });
    const controller = new AbortController();
    invalidate.mockImplementation(() => {
      controller.abort(); // the deadline passes during the first invalidation
      return Promise.resolve();
    });
    await expect(
      sut.process(
        event('contact.updated', { after: { uid: 'a', emails: ['a@example.com'] } }),
        controller.signal,
      ),
    ).rejects.toThrow();
    expect(invalidate).toHaveBeenCalledTimes(1);
  });

  it('message.received goes through ingestConversations as one record', async () => {
    const ingestConversations = oneIngested();
    const sut = build({}, { ingestConversations });
    await sut.process(
      event('message.received', {
        body: 'Where is my order?',
        createdAt: '2026-11-30T09:00:00Z',
        contact: { uid: 'ctc-a' },
        conversation: { uid: 'conv-a', channel: { type: 'sms' } },
        location: { uid: 'loc-a' },
      }),
    );
    expect(ingestConversations).toHaveBeenCalledWith([
      {
        conversation_uid: 'conv-a',
        contact_uid: 'ctc-a',
        location_uid: 'loc-a',
        channel: 'sms',
        occurred_at: '2026-11-30T09:00:00.000Z',
        sender: 'customer',
        text: 'Where is my order?',
      },
    ]);
    expect(calls).toEqual(['invalidate ctc-a']);
  });

  it('a message ingest rejects is a permanent error, not a retry', async () => {
    const ingestConversations = jest.fn().mockResolvedValue({
      received: 1,
      inserted: 0,
      skipped: 0,
      failed: [{ index: 0, error: 'contact_uid has invalid characters' }],
    });
    const sut = build({}, { ingestConversations });
    await expect(
      sut.process(
        event('message.sent', {
          body: 'hi',
          contact: { uid: 'bad uid' },
          conversation: { uid: 'c' },
        }),
      ),
    ).rejects.toThrow(WebhookPayloadError);
    expect(calls).toEqual([]);
  });

  it('an attachment-only message is done without touching anything', async () => {
    const sut = build();
    await expect(
      sut.process(
        event('message.received', { body: '', contact: { uid: 'a' }, conversation: { uid: 'c' } }),
      ),
    ).resolves.toEqual({ outcome: 'skipped', type: 'message.received' });
  });

  it('an unhandled stored type is a permanent error', async () => {
    await expect(build().process(event('review.created', {}))).rejects.toThrow(WebhookPayloadError);
  });
});
