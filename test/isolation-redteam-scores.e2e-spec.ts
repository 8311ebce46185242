import { type Client } from '@modelcontextprotocol/sdk/client/index.js';

import { type FakeQdrant, startFakeQdrant } from './fakes/qdrant-server';
import { type AdapterApp, bootAdapterApp, tenantA, tenantB } from './support/adapter-fixtures';
import { message } from './support/auth-fixtures';
import { comparable, readViews } from './support/redteam';
import { mcpClient, request } from './support/tenant-isolation-fixtures';

type Key = { key: string };
const bearer = (k: Key) => ({ authorization: `Bearer ${k.key}` });
const PROBE = 'ctc_rt_probe';
const QUERY = 'tangerine kettle lid warranty claim';

/**
 * Scores as a side channel, before and after: tenant A reads its own history (explain's
 * every score, rank and component, the excerpts' order, hits, the vector-store page, MCP);
 * then tenant B floods its history with A's query words, under A's contact id and others;
 * A reads again and every answer must be the same, number for number. A score that counted
 * B's documents (BM25's document frequencies and lengths, a pool-wide normalisation) would
 * tell A whether a word (a name, an order number) occurs in another tenant's data.
 */
describe.each(['pgvector', 'qdrant'])('isolation red team: scores on %s (e2e)', (provider) => {
  let fake: FakeQdrant | undefined;
  let a: AdapterApp;
  let mcpA: Client;
  const call = (path: string, key: Key, body: unknown) =>
    request(`${a.t.url}${path}`, 'POST', bearer(key), body);

  beforeAll(async () => {
    fake = provider === 'qdrant' ? await startFakeQdrant() : undefined;
    a = await bootAdapterApp({
      CONTEXT_TIMEOUT_MS: '5000',
      ...(fake ? { VECTOR_PROVIDER: 'qdrant', QDRANT_URL: fake.url } : {}),
    });
    const own = [
      'Warranty claim for the tangerine kettle lid, cracked on arrival.',
      'The kettle lid hinge squeaks; no warranty claim yet.',
      'My tangerine teapot arrived fine, thanks.',
    ].map((text, i) => ({
      ...message(PROBE, 'loc_a', i, text),
      conversation_uid: `conv_rt_probe_${i}`,
    }));
    expect((await call('/ingest/conversations', tenantA, own)).status).toBe(200);
    mcpA = await mcpClient(a.t.url, tenantA.key);
  }, 120_000);
  afterAll(async () => {
    await mcpA?.close();
    await a?.t.close();
    await fake?.close();
  });

  /** Everything A reads about its probe contact and across its contacts. */
  const aReads = async () => {
    const views = await readViews(a.t.url, tenantA, mcpA, PROBE, QUERY);
    const across = {
      search: await call('/search', tenantA, { query: QUERY, top_k: 20 }),
      explain: await call('/context', tenantA, { transcript: QUERY, explain: true }),
    };
    return Object.fromEntries(
      Object.entries({ ...views, ...across }).map(([route, r]) => [
        route,
        [r.status, comparable(r.text, [])],
      ]),
    );
  };

  it("B's flood of A's query words changes no score, rank or order A reads", async () => {
    const before = await aReads();
    expect(JSON.stringify(before.explain)).toContain('tangerine kettle lid');
    const flood = Array.from({ length: 40 }, (_, i) => ({
      ...message(
        i % 2 ? PROBE : `ctc_rt_b_${i}`,
        'loc_b',
        i,
        `B-FLOOD tangerine kettle ${'lid '.repeat(i % 5)}.`,
      ),
      conversation_uid: `conv_rt_flood_${i}`,
    }));
    expect((await call('/ingest/conversations', tenantB, flood)).status).toBe(200);
    const owner = await call('/search', tenantB, { query: QUERY, contact_uid: PROBE });
    expect(owner.text).toContain('B-FLOOD'); // the flood is there, for its owner
    const after = await aReads();
    expect(JSON.stringify(after)).not.toContain('B-FLOOD');
    expect(after).toEqual(before);
  });
});
