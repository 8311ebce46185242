import { ConversationMemory } from '../src/conversations/conversation-memory.service';
import {
  FORGET_MAX_INFLIGHT,
  FORGET_MAX_WAITING,
  ForgetGate,
} from '../src/conversations/forget-gate';
import { type AdapterApp, bootAdapterApp, tenantA, tenantB } from './support/adapter-fixtures';
import { request } from './support/tenant-isolation-fixtures';
import { waitUntil } from './support/wait';

type Key = { key: string };
const bearer = (k: Key) => ({ authorization: `Bearer ${k.key}` });

/**
 * Starvation: one tenant's burst must not keep another tenant from its own work. Here tenant
 * B floods forgets (each held until the test lets it go, as a large or slow erasure is) and
 * tenant A's single forget, an erasure its customer asked for, must still be admitted.
 */
describe('isolation red team: one tenant cannot starve another (e2e)', () => {
  let a: AdapterApp;

  beforeAll(async () => {
    a = await bootAdapterApp({ CONTEXT_TIMEOUT_MS: '5000' });
  }, 120_000);
  afterAll(async () => {
    await a?.t.close();
  });

  it("B's flood of forgets never fills the queue A's forget waits in (old: A got 429 forget_busy)", async () => {
    const memory = a.t.app.get(ConversationMemory);
    const gate = a.t.app.get(ForgetGate);
    const forget = memory.forgetContact.bind(memory);
    const held: Array<() => void> = [];
    let holding = true;
    // B's forgets hang until released: a slow erasure, without any clock in the test.
    jest.spyOn(memory, 'forgetContact').mockImplementation(async (contact, ...rest) => {
      if (holding && contact.startsWith('ctc_flood_')) {
        await new Promise<void>((resolve) => held.push(resolve));
      }
      return forget(contact, ...rest);
    });
    const flood = FORGET_MAX_INFLIGHT + FORGET_MAX_WAITING;
    let answered = 0;
    const bursts = Array.from({ length: flood }, (_, i) =>
      request(`${a.t.url}/contacts/forget`, 'POST', bearer(tenantB), {
        contact_uid: `ctc_flood_${i}`,
      }).finally(() => answered++),
    );
    // Every one of B's requests is running, waiting or answered before A asks.
    await waitUntil('B’s flood admitted or refused', () => {
      const { inFlight, waiting } = gate.load;
      return inFlight + waiting + answered === flood;
    });
    const fromA = request(`${a.t.url}/contacts/forget`, 'POST', bearer(tenantA), {
      contact_uid: 'ctc_a1',
    });
    const answer = await fromA;
    holding = false;
    held.splice(0).forEach((release) => release());
    const fromB = await Promise.all(bursts);
    expect({ status: answer.status, body: answer.json() }).toMatchObject({
      status: 200,
      body: { location_uids: ['loc_a'] },
    });
    // B was refused, not A; B's refusals say nothing of how many forgets run or wait.
    const refused = fromB.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.json()).toMatchObject({ error: 'forget_busy' });
      expect(String(r.json().detail)).not.toMatch(/\d+ forget/);
    }
  });
});
