import OpenAI from 'openai';

import { type AdapterApp, bootAdapterApp, tenantA, tenantB } from './support/adapter-fixtures';

describe('POST /v1/vector_stores/{contact_uid}/search (e2e, official openai SDK)', () => {
  let a: AdapterApp;
  /** The official client pointed at us by base URL, our API key as its "OpenAI key". */
  const client = (key: string) =>
    new OpenAI({ apiKey: key, baseURL: `${a.t.url}/v1`, maxRetries: 0 });

  beforeAll(async () => {
    // The SDK's search carries no deadline, so the service default applies: the fixtures' 300 ms
    // can end a loaded CI box's first, cold call empty. The deadline test still ends on it.
    a = await bootAdapterApp({ CONTEXT_TIMEOUT_MS: '3000' });
  });
  afterAll(() => a.t.close());
  afterEach(() => {
    a.embedFault.mode = a.liveFault.mode = 'off';
  });

  it('returns a vector_store.search_results.page of redacted excerpts', async () => {
    const page = await client(tenantA.key).vectorStores.search('ctc_a1', {
      query: 'espresso machine leaking',
      max_num_results: 1,
    });
    expect(page.data).toHaveLength(1);
    const [hit] = page.data;
    expect(hit).toMatchObject({
      filename: expect.stringMatching(/^sms-2026-01-05T.*\.txt$/),
      score: expect.any(Number),
      attributes: { contact_uid: 'ctc_a1', channel: 'sms' },
      content: [{ type: 'text', text: expect.stringContaining('espresso') }],
    });
    expect(hit.file_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(page.hasNextPage()).toBe(false);
    const raw = await client(tenantA.key)
      .vectorStores.search('ctc_a1', { query: ['espresso', 'machine'] })
      .asResponse();
    expect(await raw.json()).toMatchObject({
      object: 'vector_store.search_results.page',
      search_query: ['espresso', 'machine'],
      has_more: false,
      next_page: null,
    });
  });

  it('honours a location_uid filter and the score threshold', async () => {
    const page = await client(tenantA.key).vectorStores.search('ctc_a1', {
      query: 'espresso machine leaking',
      filters: { type: 'eq', key: 'location_uid', value: 'loc_a' },
      ranking_options: { score_threshold: 1e9 },
    });
    expect(page.data).toEqual([]);
  });

  it('answers an empty page on time when the deadline runs out', async () => {
    // The dependencies never answer: only the deadline ends the search (else jest's timeout).
    a.embedFault.mode = a.liveFault.mode = 'hang';
    const page = await client(tenantA.key).vectorStores.search('ctc_a1', {
      query: 'a question nobody asked the openai shape',
    });
    expect(page.data).toEqual([]);
  });

  it('keeps a key bound to loc_a out of loc_b', async () => {
    // Another location's contact looks exactly like an unknown one: an empty page.
    const foreign = await client(tenantA.key).vectorStores.search('ctc_b1', { query: 'espresso' });
    expect(foreign.data).toEqual([]);
    await expect(
      client(tenantA.key).vectorStores.search('ctc_a1', {
        query: 'espresso',
        filters: { type: 'eq', key: 'location_uid', value: 'loc_b' },
      }),
    ).rejects.toMatchObject({ status: 403, error: 'location_forbidden' }); // our code, where OpenAI nests an object
    const ghost = await client(tenantA.key).vectorStores.search('ctc_ghost', {
      query: 'ghost espresso machine leaking water',
    });
    expect(ghost.data).toEqual([]);
    const owner = await client(tenantB.key).vectorStores.search('ctc_ghost', {
      query: 'ghost espresso machine leaking water',
    });
    expect(JSON.stringify(owner.data)).toContain('B-SECRET');
  });

  it('refuses bad bodies and unsupported filters with a clear 400', async () => {
    const sdk = client(tenantA.key);
    const cases: Array<[OpenAI.VectorStores.VectorStoreSearchParams, string]> = [
      [{ query: '  ' }, 'validation_failed'],
      [{ query: 'x', max_num_results: 500 }, 'validation_failed'],
      [{ query: 'x', filters: { type: 'eq', key: 'channel', value: 'sms' } }, 'unsupported_filter'],
      [
        {
          query: 'x',
          filters: {
            type: 'or',
            filters: [{ type: 'eq', key: 'location_uid', value: 'loc_a' }],
          },
        },
        'unsupported_filter',
      ],
    ];
    for (const [params, code] of cases) {
      await expect(sdk.vectorStores.search('ctc_a1', params)).rejects.toMatchObject({
        status: 400,
        error: code,
      });
    }
    await expect(sdk.vectorStores.search('bad id!', { query: 'x' })).rejects.toMatchObject({
      status: 400,
    });
    await expect(
      client('wrong').vectorStores.search('ctc_a1', { query: 'x' }),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });
});
