import { ConfigurationError } from '@app/common';
import { Inject, Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';

import { CohereReranker } from './cohere/cohere.reranker';
import { FusionReranker } from './fusion/fusion.reranker';
import { RERANKER, type Reranker } from './interfaces/reranker.interface';
import { LlmReranker } from './llm/llm.reranker';
import { NoneReranker } from './none/none.reranker';
import { RerankModule } from './rerank.module';
import { createReranker } from './rerank.providers';
import { TeiReranker } from './tei/tei.reranker';

const INFO = { provider: 'openai' as const, model: 'm' };
async function* never(): AsyncGenerator<string> {}

@Injectable()
class Consumer {
  constructor(@Inject(RERANKER) readonly reranker: Reranker) {}
}

@Module({ providers: [Consumer] })
class ConsumerModule {}

describe('RerankModule', () => {
  it('provides the configured reranker under RERANKER, globally when asked', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [RerankModule.forRoot({ provider: 'fusion', isGlobal: true }), ConsumerModule],
    }).compile();
    const sut = moduleRef.get(Consumer).reranker;
    expect(sut).toBeInstanceOf(FusionReranker);
    await expect(
      sut.score('walnut table', [{ id: 'a', content: 'the walnut table' }]),
    ).resolves.toHaveLength(1);
    await moduleRef.close();
  });

  it('builds the options asynchronously with forRootAsync', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [RerankModule.forRootAsync({ useFactory: () => ({ provider: 'none' as const }) })],
    }).compile();
    expect(moduleRef.get(RERANKER)).toBeInstanceOf(NoneReranker);
    await moduleRef.close();
  });
});

describe('createReranker', () => {
  it('maps every provider name to its implementation', () => {
    expect(createReranker({ provider: 'fusion', fusion: { k: 30 } })).toBeInstanceOf(
      FusionReranker,
    );
    expect(createReranker({ provider: 'none' })).toBeInstanceOf(NoneReranker);
    expect(createReranker({ provider: 'tei', teiUrl: 'http://tei:8080' })).toBeInstanceOf(
      TeiReranker,
    );
    expect(createReranker({ provider: 'cohere', cohereApiKey: 'k' })).toBeInstanceOf(
      CohereReranker,
    );
  });

  it('fails at boot when a remote provider lacks what it needs', () => {
    expect(() => createReranker({ provider: 'llm' })).toThrow(ConfigurationError);
    expect(
      createReranker({ provider: 'llm' }, { info: INFO, stream: () => never() }),
    ).toBeInstanceOf(LlmReranker);
    expect(() => createReranker({ provider: 'tei' })).toThrow(ConfigurationError);
    expect(() => createReranker({ provider: 'cohere' })).toThrow(ConfigurationError);
    // A proxy in front of Cohere may add the credentials itself.
    expect(createReranker({ provider: 'cohere', cohereBaseUrl: 'http://proxy' })).toBeInstanceOf(
      CohereReranker,
    );
  });

  it('rejects an already-aborted signal on the fusion path, like the remote providers', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      createReranker({ provider: 'fusion' }).score(
        'q',
        [{ id: 'a', content: 'x' }],
        controller.signal,
      ),
    ).rejects.toMatchObject({ code: 'rerank_failed' });
  });
});
