import { configurableRootModule } from '@app/common';

import { type FusionOptions } from './fusion/fusion-score';
import { type RerankerName } from './interfaces/reranker.interface';

export interface RerankModuleOptions {
  provider: RerankerName;
  /** Required for `tei`: base URL of a text-embeddings-inference server hosting a reranker. */
  teiUrl?: string;
  /** Required for `cohere` unless `cohereBaseUrl` points at a proxy that authenticates. */
  cohereApiKey?: string;
  cohereBaseUrl?: string;
  /** Defaults to `rerank-v3.5`. */
  cohereModel?: string;
  /** Per-request ceiling for the remote providers, when the caller passes no signal. */
  timeoutMs?: number;
  /** Overrides for the `fusion` provider's weights (see `DEFAULT_FUSION_OPTIONS`). */
  fusion?: Partial<FusionOptions>;
}

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: RERANK_OPTIONS } =
  configurableRootModule<RerankModuleOptions>();
