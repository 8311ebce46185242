import { ConfigurationError } from '@app/common';
import { Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';

import { type FakeAnthropic, startFakeAnthropic } from '../../../test/fakes/anthropic-server';
import { AnthropicLlmProvider } from './anthropic/anthropic-llm.provider';
import { ExtractiveLlmProvider } from './extractive/extractive-llm.provider';
import { type GenerationRequest, LLM_PROVIDER } from './interfaces/llm-provider.interface';
import { LlmModule } from './llm.module';
import { createLlmProvider } from './llm.providers';
import { LlmService } from './llm.service';
import { OpenAiLlmProvider } from './openai/openai-llm.provider';

const request: GenerationRequest = {
  system: 'R42',
  messages: [{ role: 'user', content: 'Question: who assigns roles?' }],
  passages: ['The lead link assigns people to roles and sets priorities for the circle.'],
  question: 'Who assigns roles?',
};

async function text(iterable: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const delta of iterable) {
    out += delta;
  }
  return out;
}

describe('createLlmProvider', () => {
  it('builds each provider, with the R42 defaults', () => {
    expect(createLlmProvider({ provider: 'extractive' })).toBeInstanceOf(ExtractiveLlmProvider);
    const anthropic = createLlmProvider({ provider: 'anthropic', anthropicApiKey: 'sk-ant-x' });
    expect(anthropic).toBeInstanceOf(AnthropicLlmProvider);
    expect(anthropic.info).toEqual({ provider: 'anthropic', model: 'claude-haiku-4-5-20251001' });
    const openai = createLlmProvider({
      provider: 'openai',
      openaiApiKey: 'sk-x',
      model: 'gpt-4.1',
    });
    expect(openai).toBeInstanceOf(OpenAiLlmProvider);
    expect(openai.info).toEqual({ provider: 'openai', model: 'gpt-4.1' });
  });

  it('refuses a vendor provider without a key', () => {
    expect(() => createLlmProvider({ provider: 'anthropic' })).toThrow(ConfigurationError);
    expect(() => createLlmProvider({ provider: 'openai' })).toThrow(/OPENAI_API_KEY/);
  });
});

describe('LlmModule', () => {
  let server: FakeAnthropic;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    server = await startFakeAnthropic({ apiKey: 'sk-ant-module', deltaDelayMs: 1 });
  });
  afterAll(() => server.close());

  it('forRoot on the embedded default gives an LlmService that answers extractively', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [LlmModule.forRoot({ isGlobal: true, provider: 'extractive', maxTokens: 1000 })],
    }).compile();
    const sut = moduleRef.get(LlmService);
    expect(sut.info.provider).toBe('extractive');
    expect(await text(sut.stream(request, new AbortController().signal))).toBe(request.passages[0]);
  });

  it('forRoot with anthropic streams through the SDK under the configured limits', async () => {
    server.configure({ reply: () => 'one two three four five six seven eight nine ten' });
    const moduleRef = await Test.createTestingModule({
      imports: [
        LlmModule.forRoot({
          provider: 'anthropic',
          anthropicApiKey: 'sk-ant-module',
          anthropicBaseUrl: server.baseURL,
          model: 'claude-test',
          maxTokens: 321,
          timeoutMs: 5000,
          maxAnswerChars: 14,
        }),
      ],
    }).compile();
    const sut = moduleRef.get(LlmService);
    expect(await text(sut.stream(request, new AbortController().signal))).toBe('one two three');
    expect(server.requests.at(-1)?.body).toMatchObject({ model: 'claude-test', max_tokens: 321 });
  });

  it('wraps whatever LLM_PROVIDER resolves to (tests can override the raw provider)', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [LlmModule.forRoot({ provider: 'extractive', maxAnswerChars: 5 })],
    })
      .overrideProvider(LLM_PROVIDER)
      .useValue({
        info: { provider: 'openai', model: 'double' },
        async *stream() {
          await Promise.resolve();
          yield 'abcdefgh';
        },
      })
      .compile();
    const sut = moduleRef.get(LlmService);
    expect(sut.info.model).toBe('double');
    expect(await text(sut.stream(request, new AbortController().signal))).toBe('abcde');
  });
});
