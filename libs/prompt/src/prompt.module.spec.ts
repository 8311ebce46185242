import { Test } from '@nestjs/testing';

import { PromptModule } from './prompt.module';
import { PromptService } from './prompt.service';
import { TokenCounter } from './tokenizer/token-counter';

describe('PromptModule', () => {
  it('provides one TokenCounter for the configured encoding and a PromptService bound to it', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        PromptModule.forRoot({
          encoding: 'cl100k_base',
          systemPrompt: 'Be brief.',
          isGlobal: true,
        }),
      ],
    }).compile();
    const counter = moduleRef.get(TokenCounter);
    const sut = moduleRef.get(PromptService);

    expect(counter.encoding).toBe('cl100k_base');
    expect(sut.counter).toBe(counter);
    const prompt = sut.buildPrompt({
      contact: undefined,
      excerpts: [],
      transcript: 'hello',
      maxTokens: 500,
    });
    expect(prompt.system).toBe('Be brief.');
    expect(
      sut.enforceBudget([{ content: 'one two three', rerank_score: 1 }], 100).token_count,
    ).toBe(counter.count('one two three'));
    await moduleRef.close();
  });

  it('defaults to o200k_base', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [PromptModule.forRoot({})],
    }).compile();
    expect(moduleRef.get(TokenCounter).encoding).toBe('o200k_base');
    await moduleRef.close();
  });
});
