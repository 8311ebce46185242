import { type RedactionService } from '@app/redaction';

import { type AppConfig } from '../../config/app-config';
import { type HistoryTombstones } from '../../relational/history-tombstones';
import { type ContextRetriever, type RankedPool } from '../context-retriever';
import { CallMemory } from './call-memory';
import { type CallIdentity, CallSessions } from './call-sessions';
import { CallTurns } from './call-turns';
import { type Speculator } from './speculator';

const config = { calls: { maxCalls: 10, maxCallsPerCaller: 10, idleMs: 60_000 } } as AppConfig;
const freshPool: RankedPool = { pool: [], reranked: true, missed: false };
const speculativePool: RankedPool = { pool: [], reranked: false, missed: false };

describe('CallTurns', () => {
  let sessions: CallSessions;
  let speculator: { interim: jest.Mock; take: jest.Mock };
  let sut: CallTurns;

  beforeEach(() => {
    sessions = new CallSessions(config);
    const memory = new CallMemory(
      { redact: (text: string) => ({ text }) } as unknown as RedactionService,
      { tombstones: () => Promise.resolve([]) } as unknown as HistoryTombstones,
    );
    // A speculation that would match: served whenever it is asked for.
    speculator = {
      interim: jest.fn(() => 'scheduled'),
      take: jest.fn(() =>
        Promise.resolve({ ranked: speculativePool, startedAt: 1, similarity: 1 }),
      ),
    };
    const retriever = { retrieve: () => Promise.resolve(freshPool) };
    sut = new CallTurns(
      sessions,
      memory,
      speculator as unknown as Speculator,
      retriever as unknown as ContextRetriever,
    );
  });

  afterEach(() => sessions.onModuleDestroy());

  const final = (identity: CallIdentity) =>
    sut.retrieve(sessions.open(identity), 'q', 'which table leg', {}, 20, () => 100, {});

  it('never serves speculation to a call without a contact: no forget check covers its pool', async () => {
    // Its pool spans every contact of the tenant; a forget of any of them between the interim
    // search and the final would otherwise be served from the pool for up to 15 s.
    const contactless: CallIdentity = { caller: 'key:a', callId: 'c1', scope: ['loc_a'] };
    const work = { poolK: 20, coalescerKey: 'k', filter: {}, busy: () => false };
    expect(sut.interim(contactless, 'x', work, () => undefined)).toBe('disabled');
    const found = await final(contactless);
    expect(found.ranked).toBe(freshPool);
    expect(found.speculatedAt).toBeUndefined();
    expect(speculator.interim).not.toHaveBeenCalled();
    expect(speculator.take).not.toHaveBeenCalled();
  });

  it('serves a matching speculation to a call with a contact', async () => {
    const found = await final({
      caller: 'key:a',
      callId: 'c2',
      contactUid: 'ctc',
      scope: undefined,
    });
    expect(found.ranked).toBe(speculativePool);
    expect(found.speculatedAt).toBe(1);
  });

  it('searches anew when asked_at gives the query a date (speculation searched without it)', async () => {
    const identity: CallIdentity = { caller: 'key:a', callId: 'c3', contactUid: 'ctc', scope: [] };
    const retrieve = (query: string, askedAt?: Date) =>
      sut.retrieve(sessions.open(identity), query, query, {}, 20, () => 100, {}, askedAt);
    const askedAt = new Date('2023-06-14T15:30:00Z');

    expect((await retrieve('what did I order last Saturday', askedAt)).ranked).toBe(freshPool);
    // The same date with or without asked_at, or no date at all: the speculation is served.
    expect((await retrieve('what did I order on 7 May 2023', askedAt)).ranked).toBe(
      speculativePool,
    );
    expect((await retrieve('which table leg', askedAt)).ranked).toBe(speculativePool);
    expect((await retrieve('what did I order last Saturday')).ranked).toBe(speculativePool);
  });
});
