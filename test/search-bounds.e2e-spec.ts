import { untilAborted } from '@app/common';
import { EmbeddingService } from '@app/embedding';

import { CallerHolds } from '../src/adapters/mcp/caller-holds';
import { MCP_CALL_CONCURRENCY, MCP_MAX_BATCH } from '../src/adapters/mcp/mcp-bounds';
import { SearchService } from '../src/retrieval/search.service';
import { SEARCH_MAX_INFLIGHT } from '../src/retrieval/search-bounds';
import { tenantA, tenantB } from './support/adapter-fixtures';
import { bootTestApp, postJson, type TestApp } from './support/app';

type Reply = { status: number; body: { error?: string } };

/** A JSON-RPC `tools/call` of search_history, as an MCP client sends it. */
const searchCall = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'search_history', arguments: { query: `gasket ${id}` } },
});

describe('search and MCP bounds: deadline, abort, admission, batch size (e2e)', () => {
  let t: TestApp;
  let embedding: EmbeddingService;
  const search = (query: string) => postJson<{ error?: string }>(`${t.url}/search`, { query });
  const mcp = (body: unknown) =>
    postJson<unknown>(`${t.url}/mcp`, body, { accept: 'application/json, text/event-stream' });

  beforeAll(async () => {
    t = await bootTestApp();
    embedding = t.app.get(EmbeddingService);
  });
  afterAll(() => t?.close());
  afterEach(() => jest.restoreAllMocks());

  /** Every query embedding hangs until its signal aborts; returns the signals it was given. */
  function hangEmbeddings(): Array<AbortSignal | undefined> {
    const signals: Array<AbortSignal | undefined> = [];
    jest.spyOn(embedding, 'embedQuery').mockImplementation((_text, signal) => {
      signals.push(signal);
      return untilAborted(new Promise<number[]>(() => undefined), signal);
    });
    return signals;
  }

  it('stops a search at its deadline (503 search_timeout) and aborts its embedding', async () => {
    const signals = hangEmbeddings();
    const reply = await search('espresso machine'); // old code: never answers
    expect(reply.status).toBe(503);
    expect(reply.body.error).toBe('search_timeout');
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(true);
  });

  it(`refuses searches past ${SEARCH_MAX_INFLIGHT} in flight with 503 search_busy`, async () => {
    hangEmbeddings();
    const replies: Reply[] = await Promise.all(
      Array.from({ length: SEARCH_MAX_INFLIGHT + 2 }, (_, i) => search(`query ${i}`)),
    );
    const codes = replies.map((r) => r.body.error).sort();
    expect(codes.filter((c) => c === 'search_busy')).toHaveLength(2);
    expect(codes.filter((c) => c === 'search_timeout')).toHaveLength(SEARCH_MAX_INFLIGHT);
    expect(replies.every((r) => r.status === 503)).toBe(true);
  });

  it('refuses an MCP batch of 100 calls (400 mcp_batch_too_large) before running any', async () => {
    const searches = jest.spyOn(t.app.get(SearchService), 'search');
    const reply = await mcp(Array.from({ length: 100 }, (_, i) => searchCall(i)));
    expect(reply.status).toBe(400);
    expect((reply.body as { error?: string }).error).toBe('mcp_batch_too_large');
    expect(searches).not.toHaveBeenCalled();
    t.app.get(CallerHolds).clear(); // the refusal held this caller (mcp-refusal-hold.e2e-spec)
  });

  it(`runs an allowed batch's tool calls ${MCP_CALL_CONCURRENCY} at a time`, async () => {
    const sut = t.app.get(SearchService);
    const real = sut.search.bind(sut);
    let running = 0;
    let most = 0;
    jest.spyOn(sut, 'search').mockImplementation(async (...args) => {
      most = Math.max(most, ++running);
      try {
        for (let turn = 0; turn < 5; turn++) {
          await new Promise((resolve) => setImmediate(resolve)); // let the rest of the batch start
        }
        return await real(...args);
      } finally {
        running--;
      }
    });
    const reply = await mcp(Array.from({ length: MCP_MAX_BATCH }, (_, i) => searchCall(i)));
    expect(reply.status).toBe(200);
    const answers = reply.body as Array<{ id: number; result?: { isError?: boolean } }>;
    expect(answers.map((a) => a.id).sort((a, b) => a - b)).toEqual(
      Array.from({ length: MCP_MAX_BATCH }, (_, i) => i),
    );
    expect(answers.every((a) => a.result && !a.result.isError)).toBe(true);
    expect(most).toBe(MCP_CALL_CONCURRENCY); // old code: all of the batch at once
  });
});

describe('search admission per tenant (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp({ API_KEYS: [tenantA.line, tenantB.line].join(',') });
  });
  afterAll(() => t?.close());
  afterEach(() => jest.restoreAllMocks());

  it(`lets one bound key hold only half of the ${SEARCH_MAX_INFLIGHT} slots; another still gets in`, async () => {
    jest
      .spyOn(t.app.get(EmbeddingService), 'embedQuery')
      .mockImplementation((_text, signal) =>
        untilAborted(new Promise<number[]>(() => undefined), signal),
      );
    const search = (key: string, i: number) =>
      postJson<{ error?: string }>(`${t.url}/search`, { query: `q ${i}` }, { 'x-api-key': key });
    const fromA = Array.from({ length: SEARCH_MAX_INFLIGHT - 2 }, (_, i) => search(tenantA.key, i));
    const fromB = search(tenantB.key, 99);
    const codesA = (await Promise.all(fromA)).map((r) => r.body.error);
    // Old code: all of A's calls fit in the shared gate, and only its deadline ends them.
    expect(codesA.filter((c) => c === 'search_busy')).toHaveLength(
      fromA.length - SEARCH_MAX_INFLIGHT / 2,
    );
    expect((await fromB).body.error).toBe('search_timeout'); // admitted, then timed out
  });
});
