import { Module } from '@nestjs/common';

import { RERANKER } from './interfaces/reranker.interface';
import { ConfigurableModuleClass } from './rerank.module-definition';
import { rerankerProvider } from './rerank.providers';

/**
 * Second-stage scoring of the retrieval pool, with the provider chosen by config (`fusion`,
 * `none`, `tei`, `cohere`). Inject the port with `@Inject(RERANKER)`.
 */
@Module({ providers: [rerankerProvider], exports: [RERANKER] })
export class RerankModule extends ConfigurableModuleClass {}
