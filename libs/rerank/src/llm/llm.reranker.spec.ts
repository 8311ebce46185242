import { AnthropicLlmProvider, type LlmProvider, OpenAiLlmProvider } from '@app/llm';

import { type FakeAnthropic, startFakeAnthropic } from '../../../../test/fakes/anthropic-server';
import { type FakeOpenAi, startFakeOpenAi } from '../../../../test/fakes/openai-server';
import { fusionScores } from '../fusion/fusion-score';
import { type RerankCandidate } from '../interfaces/reranker.interface';
import { LlmReranker, parseGrades } from './llm.reranker';

const KEY = 'test-key';
const QUERY = 'when does the bakery open on sundays';
// Fusion alone prefers the first (dense rank 1, more shared words); the model knows better.
const POOL: RerankCandidate[] = [
  {
    id: 'a',
    content: 'The bakery on Main Street sells sundae cakes.',
    denseScore: 0.8,
    denseRank: 1,
  },
  { id: 'b', content: 'Sunday hours: we open at 9 am.', denseScore: 0.6, denseRank: 2 },
  { id: 'c', content: 'Parking is free behind the store.', denseScore: 0.3, denseRank: 3 },
];
const order = (scores: number[]) =>
  scores
    .map((s, i) => ({ s, id: POOL[i].id }))
    .sort((x, y) => y.s - x.s)
    .map((x) => x.id);

describe('parseGrades', () => {
  it('reads "[n] score" lines and tolerates the usual variants, first grade wins', () => {
    expect([...parseGrades('[1] 3\n[2]: 9/10\n3 - 0\n[2] 1\n[9] 7', 3)]).toEqual([
      [1, 0.3],
      [2, 0.9],
      [3, 0],
    ]);
    expect(parseGrades('I cannot help with that.', 3).size).toBe(0);
  });
});

describe.each<
  [
    string,
    () => Promise<{
      llm: LlmProvider;
      script(text?: string): void;
      requests(): Array<Record<string, unknown>>;
      close(): Promise<void>;
    }>,
  ]
>([
  [
    'Anthropic',
    async () => {
      const server: FakeAnthropic = await startFakeAnthropic({ apiKey: KEY, deltaDelayMs: 1 });
      return {
        llm: new AnthropicLlmProvider({ apiKey: KEY, baseURL: server.baseURL, maxRetries: 0 }),
        script: (text) =>
          server.script(text === undefined ? { kind: 'hang' } : { kind: 'reply', text }),
        requests: () => server.requests.map((r) => r.body),
        close: () => server.close(),
      };
    },
  ],
  [
    'OpenAI',
    async () => {
      const server: FakeOpenAi = await startFakeOpenAi({ apiKey: KEY });
      server.configureChat({ deltaDelayMs: 1 });
      return {
        llm: new OpenAiLlmProvider({ apiKey: KEY, baseURL: server.baseURL, maxRetries: 0 }),
        script: (text) =>
          server.scriptChat(text === undefined ? { kind: 'hang' } : { kind: 'reply', text }),
        requests: () => server.chatRequests.map((r) => r.body),
        close: () => server.close(),
      };
    },
  ],
])('LlmReranker on the %s test server', (_vendor, start) => {
  let sut: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    sut = await start();
  });
  afterAll(() => sut.close());

  it('grades the whole pool in one request and ranks by the model', async () => {
    sut.script('[1] 2\n[2] 10\n[3] 0');
    const before = sut.requests().length;
    // A generous stage deadline: on a loaded box the default 2 s can pass, and the test is
    // about the model's order, not about the deadline (the next tests cover that).
    const scores = await new LlmReranker(sut.llm, { timeoutMs: 60_000 }).score(QUERY, POOL);
    expect(order(fusionScores(QUERY, POOL))[0]).toBe('a');
    expect(order(scores)).toEqual(['b', 'a', 'c']);
    expect(scores.every((s) => s >= 0 && s <= 1)).toBe(true);
    expect(sut.requests()).toHaveLength(before + 1);
    const sent = JSON.stringify(sut.requests().at(-1));
    expect(sent).toContain('[2] Sunday hours: we open at 9 am.');
    expect(sent).toContain(QUERY);
  });

  it('keeps fusion order when the model misses the deadline', async () => {
    sut.script(); // hangs until the client leaves
    const scores = await new LlmReranker(sut.llm, { timeoutMs: 150 }).score(QUERY, POOL);
    expect(scores).toEqual(fusionScores(QUERY, POOL));
  });

  it('keeps fusion order when the reply grades too few passages', async () => {
    sut.script('Passage 2 is the best one.');
    expect(await new LlmReranker(sut.llm).score(QUERY, POOL)).toEqual(fusionScores(QUERY, POOL));
  });

  it('stops at the caller deadline too, and rejects a signal already aborted', async () => {
    sut.script();
    const caller = AbortSignal.timeout(100);
    const scores = await new LlmReranker(sut.llm, { timeoutMs: 10_000 }).score(QUERY, POOL, caller);
    expect(scores).toEqual(fusionScores(QUERY, POOL));
    await expect(new LlmReranker(sut.llm).score(QUERY, POOL, caller)).rejects.toMatchObject({
      code: 'rerank_failed',
    });
  });
});
