import { type RedactionService } from '@app/redaction';

import { type HistoryTombstones } from '../../relational/history-tombstones';
import { CallMemory, MAX_CALL_CHARS, MAX_CALL_TURNS } from './call-memory';
import { CallSession } from './call-sessions';
import { QueryTerms } from './query-match';

const redaction = {
  redact: (text: string) => ({ text: text.replaceAll('pat@example.com', '[REDACTED:EMAIL]') }),
} as unknown as RedactionService;

describe('CallMemory', () => {
  let tombstones: Array<{ contact_uid: string; location_uid: string; forgotten_at: Date }>;
  let sut: CallMemory;
  let session: CallSession;

  beforeEach(() => {
    tombstones = [];
    sut = new CallMemory(redaction, {
      tombstones: () => Promise.resolve(tombstones),
    } as unknown as HistoryTombstones);
    session = new CallSession('k', {
      caller: 'c',
      callId: 'call',
      contactUid: 'ctc',
      locationUid: 'loc_a',
      scope: undefined,
    });
  });

  it('keeps turns redacted and recalls the ones that share the query’s terms', async () => {
    sut.remember(session, 'my gate code is 4417, mail me at pat@example.com');
    sut.remember(session, 'the weather is nice');
    sut.remember(session, 'the weather  is nice'); // resent: kept once
    expect(session.turns).toHaveLength(2);
    const found = await sut.recall(session, new QueryTerms('which gate code'), () => 100);
    expect(found?.turns.map((t) => t.content)).toEqual([
      'my gate code is 4417, mail me at [REDACTED:EMAIL]',
    ]);
  });

  it('is bounded in turns and characters; what is pushed out is handed back to join history', () => {
    const spilled = Array.from({ length: MAX_CALL_TURNS + 3 }, (_, i) =>
      sut.remember(session, `turn ${i}`),
    ).flat();
    expect(session.turns).toHaveLength(MAX_CALL_TURNS);
    expect(spilled.map((t) => t.text)).toEqual(['turn 0', 'turn 1', 'turn 2']);
    const big = sut.remember(session, 'x'.repeat(MAX_CALL_CHARS));
    expect(session.chars).toBeLessThanOrEqual(MAX_CALL_CHARS);
    expect(big.length).toBe(MAX_CALL_TURNS); // everything older went
  });

  it('drops turns said before a forget of the contact (this location or all), not after', async () => {
    sut.remember(session, 'locker combination 9182');
    session.turns[0].at = new Date(Date.now() - 10_000);
    sut.remember(session, 'locker is the blue one');
    tombstones = [
      { contact_uid: 'ctc', location_uid: 'loc_b', forgotten_at: new Date() }, // another location
    ];
    const query = new QueryTerms('locker');
    expect((await sut.recall(session, query, () => 100))?.turns).toHaveLength(2);
    tombstones.push({
      contact_uid: 'ctc',
      location_uid: '',
      forgotten_at: new Date(Date.now() - 5_000),
    });
    const after = await sut.recall(session, query, () => 100);
    expect(after?.turns.map((t) => t.content)).toEqual(['locker is the blue one']);
    expect(session.turns).toHaveLength(1);
  });

  it('under a key bound to one location and no location named, that location’s forget counts', async () => {
    // Its turns join history at the key's location: a forget there must reach call memory too.
    session = new CallSession('k', {
      caller: 'c',
      callId: 'call',
      contactUid: 'ctc',
      scope: ['loc_a'],
    });
    sut.remember(session, 'locker combination 9182');
    session.turns[0].at = new Date(Date.now() - 10_000);
    tombstones = [{ contact_uid: 'ctc', location_uid: 'loc_a', forgotten_at: new Date() }];
    const found = await sut.recall(session, new QueryTerms('locker'), () => 100);
    expect(found?.turns).toEqual([]);
    expect(found?.forgottenAt).toBeDefined(); // a speculative pool searched before it is not served
    expect(session.turns).toHaveLength(0);
  });

  it('unbound and unnamed: a location’s forget holds back the pool, not turns stored without one', async () => {
    // Its search spans every location; its turns join history with no location.
    session = new CallSession('k', {
      caller: 'c',
      callId: 'call',
      contactUid: 'ctc',
      scope: undefined,
    });
    sut.remember(session, 'locker combination 9182');
    session.turns[0].at = new Date(Date.now() - 10_000);
    tombstones = [{ contact_uid: 'ctc', location_uid: 'loc_b', forgotten_at: new Date() }];
    const found = await sut.recall(session, new QueryTerms('locker'), () => 100);
    expect(found?.forgottenAt).toBeDefined();
    expect(found?.turns).toHaveLength(1);
  });

  it('on a single-writer store reuses its forget check until this process writes a tombstone', async () => {
    // The embedded engine: only this process writes tombstones, so a read is current until it
    // writes one. The speculation's precheck then saves the final a statement.
    let reads = 0;
    const store = {
      writes: 0,
      singleWriter: true,
      tombstones: () => {
        reads++;
        return Promise.resolve([...tombstones]);
      },
    };
    sut = new CallMemory(redaction, store as unknown as HistoryTombstones);
    sut.remember(session, 'locker combination 9182');
    session.turns[0].at = new Date(Date.now() - 10_000);
    await sut.precheck(session, () => 100);
    const query = new QueryTerms('locker');
    expect((await sut.recall(session, query, () => 100))?.turns).toHaveLength(1);
    expect(reads).toBe(1);
    // A forget lands: its write is counted before its row is, so the next recall reads again.
    store.writes++;
    tombstones = [{ contact_uid: 'ctc', location_uid: '', forgotten_at: new Date() }];
    const after = await sut.recall(session, query, () => 100);
    expect(reads).toBe(2);
    expect(after?.turns).toEqual([]);
    expect(after?.forgottenAt).toBeDefined();
    // Another replica may write (a server database): every check reads.
    store.singleWriter = false;
    await sut.precheck(session, () => 100);
    await sut.recall(session, query, () => 100);
    await sut.recall(session, query, () => 100);
    expect(reads).toBe(4);
  });

  it('serves nothing of the call when the forget check misses its deadline', async () => {
    sut.remember(session, 'locker combination 9182');
    expect(await sut.recall(session, new QueryTerms('locker'), () => 0)).toBeUndefined();
  });
});
