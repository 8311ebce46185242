import { DependencyError } from '@app/common';

import {
  type EmbeddingModelInfo,
  type EmbeddingProvider,
} from '../interfaces/embedding-provider.interface';

export interface TeiEmbeddingOptions {
  url: string;
  model?: string;
  dimension?: number;
  timeoutMs?: number;
}

/** TEI's default `--max-client-batch-size`. */
const MAX_CLIENT_BATCH = 32;

/**
 * A HuggingFace text-embeddings-inference server (`POST /embed`). The model is whatever the
 * server was started with; its dimension is probed with one embedding at boot.
 */
export class TeiEmbeddingProvider implements EmbeddingProvider {
  constructor(private readonly options: TeiEmbeddingOptions) {}

  async init(): Promise<EmbeddingModelInfo> {
    const [probe] = await this.embedBatch(['dimension probe']);
    const model = this.options.model ?? (await this.modelId()) ?? 'tei';
    // bge-style models put unrelated text around 0.4–0.5 cosine, so 0.70 is not their bar.
    return { provider: 'tei', model, dimension: probe.length, defaultThreshold: 0.6 };
  }

  async embedBatch(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += MAX_CLIENT_BATCH) {
      out.push(...(await this.post(texts.slice(i, i + MAX_CLIENT_BATCH), signal)));
    }
    return out;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private async post(inputs: string[], signal?: AbortSignal): Promise<number[][]> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 30_000);
    const response = await fetch(new URL('/embed', this.options.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ inputs, truncate: true, normalize: true }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    }).catch(() => {
      // No upstream detail to the client: it can name hosts and ports.
      throw new DependencyError('embedding_failed', 'The embedding server is unreachable.');
    });
    if (!response.ok) {
      throw new DependencyError('embedding_failed', `TEI /embed answered HTTP ${response.status}`);
    }
    return (await response.json()) as number[][];
  }

  private async modelId(): Promise<string | undefined> {
    const response = await fetch(new URL('/info', this.options.url)).catch(() => undefined);
    if (!response?.ok) {
      return undefined;
    }
    const info = (await response.json()) as { model_id?: string };
    return info.model_id;
  }
}
