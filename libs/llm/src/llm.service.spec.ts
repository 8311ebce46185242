import { DependencyError } from '@app/common';
import { Logger } from '@nestjs/common';

import {
  type FakeAnthropic,
  fakeDeltas,
  startFakeAnthropic,
} from '../../../test/fakes/anthropic-server';
import { waitUntil } from '../../../test/support/wait';
import { AnthropicLlmProvider } from './anthropic/anthropic-llm.provider';
import { type GenerationRequest, type LlmProvider } from './interfaces/llm-provider.interface';
import { cutToFit, LlmService } from './llm.service';

const request: GenerationRequest = {
  system: 'system',
  messages: [{ role: 'user', content: 'question' }],
  passages: [],
  question: 'question',
};

/** A provider double: yields `pieces`, then optionally hangs (ignoring its signal) or throws. */
class ScriptedProvider implements LlmProvider {
  readonly info = { provider: 'extractive', model: 'double' } as const;
  readonly signals: AbortSignal[] = [];
  returned = false;

  constructor(
    private readonly pieces: string[],
    private readonly then: 'end' | 'hang' | Error = 'end',
  ) {}

  async *stream(_request: GenerationRequest, signal: AbortSignal): AsyncGenerator<string> {
    this.signals.push(signal);
    try {
      for (const piece of this.pieces) {
        await Promise.resolve();
        yield piece;
      }
      if (this.then === 'hang') {
        await new Promise(() => undefined);
      } else if (this.then instanceof Error) {
        throw this.then;
      }
    } finally {
      this.returned = true;
    }
  }
}

async function run(
  sut: LlmService,
  signal = new AbortController().signal,
): Promise<{ deltas: string[]; error?: unknown }> {
  const deltas: string[] = [];
  try {
    for await (const delta of sut.stream(request, signal)) {
      deltas.push(delta);
    }
    return { deltas };
  } catch (error) {
    return { deltas, error };
  }
}

describe('LlmService (the limits every provider keeps)', () => {
  beforeAll(() => {
    Logger.overrideLogger(false);
  });

  it('passes deltas through unchanged, skipping empty ones', async () => {
    const provider = new ScriptedProvider(['Hello ', '', 'world.']);
    const sut = new LlmService(provider, { timeoutMs: 1000, maxAnswerChars: 100 });
    expect(await run(sut)).toEqual({ deltas: ['Hello ', 'world.'] });
    expect(sut.info).toBe(provider.info);
    // The upstream signal is released once the answer is complete.
    expect(provider.signals[0].aborted).toBe(true);
  });

  it('ends the answer at maxAnswerChars, on a word boundary, and aborts the upstream', async () => {
    const provider = new ScriptedProvider(Array.from({ length: 50 }, (_, i) => `word${i} `));
    const sut = new LlmService(provider, { timeoutMs: 1000, maxAnswerChars: 40 });
    const { deltas, error } = await run(sut);
    expect(error).toBeUndefined();
    const answer = deltas.join('');
    expect(answer.length).toBeLessThanOrEqual(40);
    expect(answer).toBe('word0 word1 word2 word3 word4 word5 ');
    expect(provider.signals[0].aborted).toBe(true);
    expect(provider.returned).toBe(true);
  });

  it('rejects at the deadline even when the provider ignores its signal', async () => {
    const provider = new ScriptedProvider(['one ', 'two '], 'hang');
    // The provider never answers nor stops: a missed deadline hangs until jest's timeout.
    const sut = new LlmService(provider, { timeoutMs: 150, maxAnswerChars: 100 });
    const { deltas, error } = await run(sut);
    expect(deltas).toEqual(['one ', 'two ']);
    expect(error).toBeInstanceOf(DependencyError);
    expect(error).toMatchObject({
      code: 'llm_failed',
      message: 'The extractive answer exceeded its 150 ms deadline.',
    });
    expect(provider.signals[0].aborted).toBe(true);
  });

  it('rejects as aborted by the caller when the caller aborts, and aborts the upstream', async () => {
    const provider = new ScriptedProvider(['one ', 'two '], 'hang');
    const sut = new LlmService(provider, { timeoutMs: 10_000, maxAnswerChars: 100 });
    const controller = new AbortController();
    const pending = run(sut, controller.signal);
    await waitUntil('the provider call', () => provider.signals.length > 0);
    controller.abort(); // mid-answer: the provider never finishes on its own
    const { error } = await pending;
    expect(error).toMatchObject({
      code: 'llm_failed',
      message: 'The extractive answer was aborted by the caller.',
    });
    expect(provider.signals[0].aborted).toBe(true);
  });

  it('passes a provider DependencyError through, and hides any other error', async () => {
    const vendor = new DependencyError('llm_failed', 'Anthropic API answered HTTP 529.');
    expect((await run(new LlmService(new ScriptedProvider(['a '], vendor), {}))).error).toBe(
      vendor,
    );
    const bug = new TypeError('cannot read secret sk-live-123 of undefined');
    const { error } = await run(new LlmService(new ScriptedProvider([], bug), {}));
    expect(error).toMatchObject({
      code: 'llm_failed',
      message: 'The extractive answer failed unexpectedly.',
    });
  });

  it('a consumer that stops early aborts the upstream signal', async () => {
    const provider = new ScriptedProvider(['a ', 'b ', 'c '], 'hang');
    const sut = new LlmService(provider, { timeoutMs: 10_000, maxAnswerChars: 100 });
    for await (const delta of sut.stream(request, new AbortController().signal)) {
      expect(delta).toBe('a ');
      break;
    }
    expect(provider.signals[0].aborted).toBe(true);
  });

  it('cutToFit keeps whole words and surrogate pairs', () => {
    expect(cutToFit('short', 10)).toBe('short');
    expect(cutToFit('hello wonderful world', 12)).toBe('hello');
    expect(cutToFit('hello wonderful', 6)).toBe('hello');
    expect(cutToFit('hello wonderful', 5)).toBe('hello');
    expect(cutToFit('unbreakable', 4)).toBe('');
    expect(cutToFit('unbreakable', 4, true)).toBe('unbr');
    expect(cutToFit('ab😀cd', 3, true)).toBe('ab');
  });
});

describe('LlmService over the real Anthropic SDK and a loopback Messages API', () => {
  const KEY = 'sk-ant-limits-test';
  const REPLY = Array.from({ length: 60 }, (_, i) => `token${i}`).join(' ');
  let server: FakeAnthropic;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    server = await startFakeAnthropic({ apiKey: KEY, deltaDelayMs: 10, reply: () => REPLY });
  });
  afterAll(() => server.close());
  beforeEach(() => server.requests.splice(0));

  const anthropic = (maxRetries = 0) =>
    new AnthropicLlmProvider({ apiKey: KEY, baseURL: server.baseURL, maxRetries });

  it('stops generation at maxAnswerChars: the API sees the hang-up before the answer ends', async () => {
    const sut = new LlmService(anthropic(), { timeoutMs: 10_000, maxAnswerChars: 100 });
    const { deltas, error } = await run(sut);
    expect(error).toBeUndefined();
    const answer = deltas.join('');
    expect(answer.length).toBeLessThanOrEqual(100);
    expect(REPLY.startsWith(answer)).toBe(true);
    const [record] = server.requests;
    await record.settled;
    expect(record.disconnected).toBe(true);
    expect(record.deltasSent).toBeLessThan(fakeDeltas(REPLY).length / 2);
  });

  it('keeps the deadline when the API stalls mid-answer, and hangs up on it', async () => {
    server.script({ kind: 'hang', afterDeltas: 3 });
    // The API never sends the rest: only the deadline ends this run (else jest's timeout).
    const sut = new LlmService(anthropic(), { timeoutMs: 300, maxAnswerChars: 4000 });
    const { deltas, error } = await run(sut);
    expect(deltas).toEqual(fakeDeltas(REPLY).slice(0, 3));
    expect(error).toMatchObject({
      code: 'llm_failed',
      message: 'The Anthropic answer exceeded its 300 ms deadline.',
    });
    await server.requests[0].settled;
    expect(server.requests[0].disconnected).toBe(true);
  });

  it('SDK retries never outlive the deadline (a retry-after past it is cut short)', async () => {
    server.script({ kind: 'http_error', status: 529, retryAfterSeconds: 0.4 });
    // Fake timers for the deadline and the SDK's retry sleep; fetch (the SDK's, read at
    // construction) is spied on, so a retry shows the moment it is attempted.
    const realFetch = globalThis.fetch;
    let answered = false;
    const fetches = jest.spyOn(globalThis, 'fetch').mockImplementation(async (...args) => {
      const response = await realFetch(...args);
      answered = true;
      return response;
    });
    jest.useFakeTimers({
      doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'performance', 'hrtime', 'Date'],
    });
    try {
      const sut = new LlmService(anthropic(2), { timeoutMs: 200, maxAnswerChars: 4000 });
      const pending = run(sut);
      const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
      // The 529 is in and the SDK sleeps towards its retry: the deadline and that sleep remain.
      for (let i = 0; i < 10_000 && !(answered && jest.getTimerCount() === 2); i++) {
        await turn();
      }
      expect(answered && jest.getTimerCount() === 2).toBe(true);
      await jest.advanceTimersByTimeAsync(200);
      const { error } = await pending;
      expect(error).toMatchObject({
        message: 'The Anthropic answer exceeded its 200 ms deadline.',
      });
      await jest.advanceTimersByTimeAsync(1000);
      for (let i = 0; i < 20; i++) {
        await turn();
      }
      expect(fetches).toHaveBeenCalledTimes(1);
      expect(server.requests).toHaveLength(1);
    } finally {
      jest.useRealTimers();
      fetches.mockRestore();
    }
  });

  it('a client that leaves (caller abort) hangs up on the API', async () => {
    const controller = new AbortController();
    const sut = new LlmService(anthropic(), { timeoutMs: 10_000, maxAnswerChars: 4000 });
    const deltas: string[] = [];
    const error = await (async () => {
      for await (const delta of sut.stream(request, controller.signal)) {
        deltas.push(delta);
        if (deltas.length === 2) {
          controller.abort();
        }
      }
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ message: 'The Anthropic answer was aborted by the caller.' });
    await server.requests[0].settled;
    expect(server.requests[0].disconnected).toBe(true);
    expect(server.requests[0].deltasSent).toBeLessThan(10);
  });
});
