import { Database } from '@app/database';
import { VECTOR_STORE, type VectorStore } from '@app/vector';

import { ConversationMemory } from '../src/conversations/conversation-memory.service';
import { HistoryPurge } from '../src/conversations/history-purge';
import { type AdapterApp, bootAdapterApp, ops, tenantA, tenantB } from './support/adapter-fixtures';
import { message } from './support/auth-fixtures';
import { persistentEngineEnv } from './support/postgres';
import { scanDatabase } from './support/residue-scan';
import { seededRandom } from './support/seeded';
import { request } from './support/tenant-isolation-fixtures';

type Key = { key: string };
const bearer = (k: Key) => ({ authorization: `Bearer ${k.key}` });
const CONTACT = 'ctc_rt_crash';
const QUERY = 'please note this for my espresso refund';

/**
 * A location-bound forget cut short by a crash (its tombstone committed, nothing deleted
 * yet: its first store call fails), then a restart: the purge resumes, and no route for any key nor any table holds a
 * word of the forgotten location's history; the other tenant's history under the same
 * contact id is whole.
 */
describe('erasure red team: a location forget across a crash (e2e)', () => {
  const { seed } = seededRandom('erasure-redteam-crash');
  const word = (n: number) => `zc${((seed * 7919 + n * 104729) % 2 ** 31).toString(36)}y`;
  const bWords = [0, 1, 2].map(word);
  const aWord = word(9);
  let store: Awaited<ReturnType<typeof persistentEngineEnv>>;
  let a: AdapterApp;
  const call = (path: string, key: Key, body: unknown) =>
    request(`${a.t.url}${path}`, 'POST', bearer(key), body);

  beforeAll(async () => {
    store = await persistentEngineEnv();
    a = await bootAdapterApp({ ...store.env, CONTEXT_TIMEOUT_MS: '5000' });
  }, 120_000);
  afterAll(async () => {
    await a?.t.close();
    await store?.release();
  });

  it('finishes after the restart: no word of B’s in any read or table, A’s stays', async () => {
    const b = bWords.map((w, i) => ({
      ...message(CONTACT, 'loc_b', i, `B-CRASH please note ${w} for my espresso refund.`),
      conversation_uid: `conv_rt_crash_${i % 2}`,
    }));
    const own = message(CONTACT, 'loc_a', 5, `A-OWN please note ${aWord} for my espresso refund.`);
    expect((await call('/ingest/conversations', tenantB, b)).status).toBe(200);
    expect((await call('/ingest/conversations', tenantA, [own])).status).toBe(200);
    // The crash: right after the tombstone commits, before any window or message is deleted.
    const crash = new Error('crash');
    jest.spyOn(a.t.app.get<VectorStore>(VECTOR_STORE), 'deleteContact').mockRejectedValue(crash);
    const memory = a.t.app.get(ConversationMemory);
    memory.onPendingForget = undefined;
    await expect(memory.forgetContact(CONTACT, ['loc_b'])).rejects.toBe(crash);
    await a.t.close();
    a = await bootAdapterApp({ ...store.env, CONTEXT_TIMEOUT_MS: '5000' });
    const purge = a.t.app.get(HistoryPurge);
    purge.kick();
    await purge.idle();
    const reads: string[] = [];
    for (const key of [tenantA, tenantB, ops]) {
      reads.push(
        (await call('/search', key, { query: QUERY, contact_uid: CONTACT, top_k: 50 })).text,
      );
      reads.push((await call('/search', key, { query: QUERY, top_k: 50 })).text);
      reads.push(
        (await call('/context', key, { transcript: QUERY, contact_uid: CONTACT, explain: true }))
          .text,
      );
      reads.push(
        (await call('/calls', key, { call_id: 'call_rt_crash', contact_uid: CONTACT })).text,
      );
    }
    const seen = reads.join('\n');
    expect(bWords.filter((w) => seen.includes(w))).toEqual([]);
    expect(seen).toContain(aWord);
    expect(await scanDatabase(a.t.app.get(Database), bWords)).toEqual([]);
  });
});
