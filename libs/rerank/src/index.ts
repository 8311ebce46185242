/**
 * RerankModule: the second stage of two-stage retrieval. The hybrid pool (about 20 dense and
 * full-text hits) goes in, one [0, 1] score per candidate comes out, and the caller keeps
 * the best few (FINAL_K).
 *
 * - `Reranker` / `RERANKER`: the port; inject with `@Inject(RERANKER)`.
 * - `RerankModule.forRoot({ provider, ... })`: `fusion` (embedded default), `none`, `tei`
 *   (text-embeddings-inference `/rerank`), `cohere` (Cohere Rerank via the official SDK).
 * - `fusionScores` / `explainFusion`: the pure fusion core, for benchmarks and the CLI;
 *   `termOverlap`: its query-coverage signal, which also finds the answering turns of a window.
 *
 * Remote providers reject with `DependencyError('rerank_failed')`; callers fall back to the
 * vector order (`reranked: false`).
 */
export { CohereReranker, type CohereRerankerOptions } from './cohere/cohere.reranker';
export { boilerplateShare } from './fusion/boilerplate';
export {
  DEFAULT_FUSION_OPTIONS,
  explainFusion,
  FUSION_COMPONENTS,
  type FusionBreakdown,
  type FusionOptions,
  fusionScores,
} from './fusion/fusion-score';
export { FusionReranker } from './fusion/fusion.reranker';
export { termOverlap } from './fusion/term-overlap';
export {
  RERANK_PROVIDERS,
  RERANKER,
  type RerankCandidate,
  type Reranker,
  type RerankerName,
  type ScoreComponents,
} from './interfaces/reranker.interface';
export {
  LLM_RERANK_DEFAULTS,
  LlmReranker,
  type LlmRerankerOptions,
  parseGrades,
} from './llm/llm.reranker';
export { NoneReranker } from './none/none.reranker';
export { RerankModule } from './rerank.module';
export { RERANK_OPTIONS, type RerankModuleOptions } from './rerank.module-definition';
export { createReranker } from './rerank.providers';
export { TeiReranker, type TeiRerankerOptions } from './tei/tei.reranker';
