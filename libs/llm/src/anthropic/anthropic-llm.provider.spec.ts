import { DependencyError } from '@app/common';

import {
  type FakeAnthropic,
  fakeDeltas,
  fakeModelReply,
  SHORT_REPLY,
  startFakeAnthropic,
} from '../../../../test/fakes/anthropic-server';
import { waitUntil } from '../../../../test/support/wait';
import { type GenerationRequest } from '../interfaces/llm-provider.interface';
import { AnthropicLlmProvider } from './anthropic-llm.provider';

const KEY = 'sk-ant-test-0123456789';
const REPLY =
  'Roles are defined by purpose, domains and accountabilities, and one person can hold several roles at once.';

const request: GenerationRequest = {
  system: 'You are R42, a knowledge assistant for Acme.',
  messages: [
    { role: 'user', content: 'What is a circle?' },
    { role: 'assistant', content: 'A circle groups roles.' },
    {
      role: 'user',
      content: 'Context from knowledge base:\n---\nA role…\n---\n\nQuestion: roles?',
    },
  ],
  passages: ['A role…'],
  question: 'roles?',
};

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const delta of iterable) {
    out.push(delta);
  }
  return out;
}

describe('AnthropicLlmProvider (real @anthropic-ai/sdk against a loopback Messages API)', () => {
  let server: FakeAnthropic;

  beforeAll(async () => {
    server = await startFakeAnthropic({ apiKey: KEY, deltaDelayMs: 2 });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.splice(0);
    server.configure({ deltaDelayMs: 2, reply: () => REPLY });
  });

  const make = (overrides: Partial<ConstructorParameters<typeof AnthropicLlmProvider>[0]> = {}) =>
    new AnthropicLlmProvider({ apiKey: KEY, baseURL: server.baseURL, maxRetries: 0, ...overrides });

  it('yields each text_delta as it arrives, before the server has finished the stream', async () => {
    server.configure({ deltaDelayMs: 30 });
    const sut = make();
    const expected = fakeDeltas(REPLY);
    const seenByServer: Array<{ sent: number; completed: boolean }> = [];
    const deltas: string[] = [];
    for await (const delta of sut.stream(request, new AbortController().signal)) {
      const record = server.requests[0];
      seenByServer.push({ sent: record.deltasSent, completed: record.completed });
      deltas.push(delta);
    }
    expect(deltas).toEqual(expected);
    expect(deltas.join('')).toBe(REPLY);
    // The first delta reached us while the server still had the rest of the answer to send.
    expect(seenByServer[0].sent).toBeLessThan(expected.length);
    expect(seenByServer[0].completed).toBe(false);
    expect(seenByServer.map((s) => s.sent)).toEqual(
      [...seenByServer.map((s) => s.sent)].sort((a, b) => a - b),
    );
  });

  it('sends the system prompt as `system`, the turns as `messages`, the model and max_tokens', async () => {
    await collect(make().stream(request, new AbortController().signal));
    expect(server.requests).toHaveLength(1);
    const [sent] = server.requests;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.body).toEqual({
      model: 'claude-haiku-4-5-20251001',
      max_tokens: 1000,
      system: request.system,
      messages: request.messages,
      stream: true,
    });
    expect(sent.headers.anthropicVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // SDK 1.x sends the key as a bearer token; the documented x-api-key works the same.
    expect(sent.headers.authorization ?? `Bearer ${sent.headers.xApiKey}`).toBe(`Bearer ${KEY}`);
  });

  it('uses the configured model and max_tokens', async () => {
    const sut = make({ model: 'claude-sonnet-4-5', maxTokens: 5 });
    const deltas = await collect(sut.stream(request, new AbortController().signal));
    expect(server.requests[0].body).toMatchObject({ model: 'claude-sonnet-4-5', max_tokens: 5 });
    expect(sut.info).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    // The fake stops at max_tokens like the API does (stop_reason max_tokens).
    expect(deltas).toEqual(fakeDeltas(REPLY).slice(0, 5));
  });

  it('streams a short reply unchanged (the chat decides what is too short)', async () => {
    server.script({ kind: 'short' });
    const deltas = await collect(make().stream(request, new AbortController().signal));
    expect(deltas.join('')).toBe(SHORT_REPLY);
  });

  it('the default fake model answers from the context block (used by the chat e2e tests)', async () => {
    server.configure({ reply: fakeModelReply });
    const deltas = await collect(make().stream(request, new AbortController().signal));
    expect(deltas.join('')).toBe('According to the knowledge base: A role…');
  });

  it('rejects with llm_failed after the text before a mid-stream overloaded_error', async () => {
    server.script({ kind: 'error_mid_stream', afterDeltas: 3 });
    const received: string[] = [];
    const error = await (async () => {
      for await (const delta of make().stream(request, new AbortController().signal)) {
        received.push(delta);
      }
    })().catch((e: unknown) => e);
    expect(received).toEqual(fakeDeltas(REPLY).slice(0, 3));
    expect(error).toBeInstanceOf(DependencyError);
    expect(error).toMatchObject({
      code: 'llm_failed',
      message: 'Anthropic stream failed mid-answer (overloaded_error): Overloaded.',
    });
  });

  it.each([
    [429, 'rate_limit_error'],
    [500, 'api_error'],
    [529, 'overloaded_error'],
  ] as const)(
    'maps HTTP %i to llm_failed (%s), without retrying when retries are off',
    async (status, type) => {
      server.script({ kind: 'http_error', status });
      const error = await collect(make().stream(request, new AbortController().signal)).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DependencyError);
      expect((error as Error).message).toMatch(
        new RegExp(`^Anthropic API answered HTTP ${status} \\(${type}\\): `),
      );
      expect(server.requests).toHaveLength(1);
    },
  );

  it('never echoes the API key when it is rejected (401)', async () => {
    const wrong = 'sk-ant-wrong-key-999999';
    const error = await collect(
      make({ apiKey: wrong }).stream(request, new AbortController().signal),
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'llm_failed',
      message: 'Anthropic API answered HTTP 401 (authentication_error): invalid x-api-key.',
    });
    expect((error as Error).message).not.toContain(wrong);
  });

  it('retries an overloaded 529 before the first byte when retries are on', async () => {
    server.script({ kind: 'http_error', status: 529, retryAfterSeconds: 0 });
    const deltas = await collect(
      make({ maxRetries: 1 }).stream(request, new AbortController().signal),
    );
    expect(deltas.join('')).toBe(REPLY);
    expect(server.requests.map((r) => r.headers.retryCount)).toEqual(['0', '1']);
  });

  it('aborting the signal mid-answer cancels the HTTP request (the server sees the hang-up)', async () => {
    server.configure({ deltaDelayMs: 20 });
    const controller = new AbortController();
    const received: string[] = [];
    const error = await (async () => {
      for await (const delta of make().stream(request, controller.signal)) {
        received.push(delta);
        if (received.length === 2) {
          controller.abort();
        }
      }
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'llm_failed', message: 'Anthropic request aborted.' });
    const [record] = server.requests;
    await record.settled;
    expect(record.disconnected).toBe(true);
    expect(record.completed).toBe(false);
    expect(record.deltasSent).toBeLessThan(fakeDeltas(REPLY).length);
  });

  it('aborting while the API has not answered yet cancels the request too', async () => {
    server.script({ kind: 'hang' });
    const controller = new AbortController();
    const pending = collect(make().stream(request, controller.signal)).catch((e: unknown) => e);
    await waitUntil('the request at the API', () => server.requests.length > 0);
    controller.abort();
    expect(await pending).toMatchObject({ code: 'llm_failed' });
    await server.requests[0].settled;
    expect(server.requests[0].disconnected).toBe(true);
  });

  it('a consumer that stops iterating early cancels the HTTP request', async () => {
    server.configure({ deltaDelayMs: 20 });
    for await (const delta of make().stream(request, new AbortController().signal)) {
      expect(delta).toBeTruthy();
      break;
    }
    await server.requests[0].settled;
    expect(server.requests[0].disconnected).toBe(true);
  });

  it('reports an unreachable API as llm_failed', async () => {
    const sut = make({ baseURL: 'http://127.0.0.1:9' });
    await expect(collect(sut.stream(request, new AbortController().signal))).rejects.toMatchObject({
      code: 'llm_failed',
      message: 'Anthropic API unreachable.',
    });
  });
});
