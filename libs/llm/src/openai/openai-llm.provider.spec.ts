import { DependencyError } from '@app/common';

import { fakeDeltas } from '../../../../test/fakes/anthropic-server';
import { type FakeOpenAi, startFakeOpenAi } from '../../../../test/fakes/openai-server';
import { type GenerationRequest } from '../interfaces/llm-provider.interface';
import { OpenAiLlmProvider } from './openai-llm.provider';

const KEY = 'sk-test-openai-0123456789';
const REPLY =
  'A circle is a group of roles that share a common purpose, with a lead link who assigns people to roles.';

const request: GenerationRequest = {
  system: 'You are R42, a knowledge assistant for Acme.',
  messages: [
    { role: 'user', content: 'Hi' },
    { role: 'assistant', content: 'Hello.' },
    {
      role: 'user',
      content: 'Context from knowledge base:\n---\nA circle…\n---\n\nQuestion: circles?',
    },
  ],
  passages: ['A circle…'],
  question: 'circles?',
};

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const delta of iterable) {
    out.push(delta);
  }
  return out;
}

describe('OpenAiLlmProvider (real openai SDK against a loopback Chat Completions API)', () => {
  let server: FakeOpenAi;

  beforeAll(async () => {
    server = await startFakeOpenAi({ apiKey: KEY });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.chatRequests.splice(0);
    server.configureChat({ deltaDelayMs: 2, reply: () => REPLY });
  });

  const make = (overrides: Partial<ConstructorParameters<typeof OpenAiLlmProvider>[0]> = {}) =>
    new OpenAiLlmProvider({ apiKey: KEY, baseURL: server.baseURL, maxRetries: 0, ...overrides });

  it('yields each delta.content as it arrives, before the server has finished', async () => {
    server.configureChat({ deltaDelayMs: 30 });
    const expected = fakeDeltas(REPLY);
    const deltas: string[] = [];
    let sentAtFirst = -1;
    for await (const delta of make().stream(request, new AbortController().signal)) {
      if (sentAtFirst < 0) {
        sentAtFirst = server.chatRequests[0].deltasSent;
        expect(server.chatRequests[0].completed).toBe(false);
      }
      deltas.push(delta);
    }
    expect(deltas).toEqual(expected);
    expect(sentAtFirst).toBeLessThan(expected.length);
  });

  it('sends the system prompt first, then the turns, the model and max_completion_tokens', async () => {
    await collect(make().stream(request, new AbortController().signal));
    const [sent] = server.chatRequests;
    expect(sent.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body).toEqual({
      model: 'gpt-4o-mini',
      max_completion_tokens: 1000,
      messages: [{ role: 'system', content: request.system }, ...request.messages],
      stream: true,
    });
  });

  it('uses the configured model and token limit', async () => {
    const sut = make({ model: 'gpt-4.1-mini', maxTokens: 4 });
    const deltas = await collect(sut.stream(request, new AbortController().signal));
    expect(server.chatRequests[0].body).toMatchObject({
      model: 'gpt-4.1-mini',
      max_completion_tokens: 4,
    });
    expect(deltas).toEqual(fakeDeltas(REPLY).slice(0, 4));
  });

  it('rejects with llm_failed after the text before a mid-stream error chunk', async () => {
    server.scriptChat({ kind: 'error_mid_stream', afterDeltas: 2 });
    const received: string[] = [];
    const error = await (async () => {
      for await (const delta of make().stream(request, new AbortController().signal)) {
        received.push(delta);
      }
    })().catch((e: unknown) => e);
    expect(received).toEqual(fakeDeltas(REPLY).slice(0, 2));
    expect(error).toBeInstanceOf(DependencyError);
    expect(error).toMatchObject({
      code: 'llm_failed',
      message:
        'OpenAI stream failed mid-answer (server_error): The server had an error while processing your request..',
    });
  });

  it('maps HTTP errors to llm_failed without echoing the key', async () => {
    server.scriptChat({ kind: 'http_error', status: 429 });
    await expect(
      collect(make().stream(request, new AbortController().signal)),
    ).rejects.toMatchObject({
      code: 'llm_failed',
      message: 'OpenAI API answered HTTP 429 (requests): Rate limit reached for requests.',
    });
    const wrong = 'sk-wrong-openai-key-000';
    const error = await collect(
      make({ apiKey: wrong }).stream(request, new AbortController().signal),
    ).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^OpenAI API answered HTTP 401/);
    expect((error as Error).message).not.toContain(wrong);
  });

  it('aborting the signal mid-answer cancels the HTTP request (the server sees the hang-up)', async () => {
    server.configureChat({ deltaDelayMs: 20 });
    const controller = new AbortController();
    const error = await (async () => {
      for await (const delta of make().stream(request, controller.signal)) {
        expect(delta).toBeTruthy();
        controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'llm_failed', message: 'OpenAI request aborted.' });
    const [record] = server.chatRequests;
    await record.settled;
    expect(record.disconnected).toBe(true);
    expect(record.deltasSent).toBeLessThan(fakeDeltas(REPLY).length);
  });

  it('leaves the embeddings endpoint of the same fake untouched', async () => {
    await collect(make().stream(request, new AbortController().signal));
    expect(server.requests).toHaveLength(0);
  });
});
