import { ConfigurationError } from '@app/common';
import { type LlmProvider, LlmService } from '@app/llm';
import { type Provider } from '@nestjs/common';

import { CohereReranker } from './cohere/cohere.reranker';
import { FusionReranker } from './fusion/fusion.reranker';
import { RERANKER, type Reranker } from './interfaces/reranker.interface';
import { LlmReranker } from './llm/llm.reranker';
import { NoneReranker } from './none/none.reranker';
import { RERANK_OPTIONS, type RerankModuleOptions } from './rerank.module-definition';
import { TeiReranker } from './tei/tei.reranker';

/**
 * Picks the implementation from config. The switch is exhaustive, so adding a name to
 * `RerankerName` fails to compile until it is handled here. `llm` grades with the chat model,
 * so it needs the LLM port (`LlmService`, which keeps the generation limits).
 */
export function createReranker(options: RerankModuleOptions, llm?: LlmProvider): Reranker {
  switch (options.provider) {
    case 'fusion':
      return new FusionReranker(options.fusion);
    case 'none':
      return new NoneReranker();
    case 'llm':
      if (!llm) {
        throw new ConfigurationError('RERANK_PROVIDER=llm needs the LLM module (LLM_PROVIDER).');
      }
      return new LlmReranker(llm, { timeoutMs: options.timeoutMs, fusion: options.fusion });
    case 'tei':
      if (!options.teiUrl) {
        throw new ConfigurationError('The tei reranker needs TEI_URL.');
      }
      return new TeiReranker({ url: options.teiUrl, timeoutMs: options.timeoutMs });
    case 'cohere':
      // An empty key is only meaningful behind a proxy that adds its own credentials.
      if (!options.cohereApiKey && !options.cohereBaseUrl) {
        throw new ConfigurationError('The cohere reranker needs COHERE_API_KEY.');
      }
      return new CohereReranker({
        apiKey: options.cohereApiKey ?? '',
        baseUrl: options.cohereBaseUrl,
        model: options.cohereModel,
        timeoutMs: options.timeoutMs,
      });
  }
}

export const rerankerProvider: Provider = {
  provide: RERANKER,
  inject: [RERANK_OPTIONS, { token: LlmService, optional: true }],
  useFactory: (options: RerankModuleOptions, llm?: LlmService) => createReranker(options, llm),
};
