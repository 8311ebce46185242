import { DependencyError, safeErrorText } from '@app/common';
import { CohereClientV2, CohereError, CohereTimeoutError } from 'cohere-ai';

import { type RerankCandidate, type Reranker } from '../interfaces/reranker.interface';

export interface CohereRerankerOptions {
  apiKey: string;
  /** Overrides `https://api.cohere.com` (a proxy, a private deployment, a test server). */
  baseUrl?: string;
  /** Defaults to `rerank-v3.5`. */
  model?: string;
  timeoutMs?: number;
  /**
   * SDK retries on 408/429/5xx. Defaults to 0: the SDK's backoff starts at one second, far
   * beyond a rerank deadline of a few hundred ms, and the pipeline already falls back to the
   * vector order when the rerank fails.
   */
  maxRetries?: number;
}

/** Cohere advises against more documents than this per request. */
const MAX_DOCUMENTS_PER_REQUEST = 1000;

/**
 * Cohere Rerank through the official SDK (`CohereClientV2.rerank`). Relevance scores are
 * normalised to [0, 1] by Cohere; results come back sorted and are mapped back by `index`.
 */
export class CohereReranker implements Reranker {
  readonly name = 'cohere' as const;
  private readonly client: CohereClientV2;
  private readonly model: string;

  constructor(private readonly options: CohereRerankerOptions) {
    this.model = options.model ?? 'rerank-v3.5';
    this.client = new CohereClientV2({
      // Always a string: left undefined, the SDK would fall back to reading CO_API_KEY itself.
      token: options.apiKey,
      baseUrl: options.baseUrl,
      // cohere-ai 8.1.0 does not clear this timer when a request is aborted or fails to
      // connect, so it outlives such a request by up to this long (it then fires harmlessly).
      timeoutInSeconds: (options.timeoutMs ?? 10_000) / 1000,
      maxRetries: options.maxRetries ?? 0,
    });
  }

  async score(
    query: string,
    candidates: RerankCandidate[],
    signal?: AbortSignal,
  ): Promise<number[]> {
    const scores = new Array<number>(candidates.length).fill(NaN);
    for (let offset = 0; offset < candidates.length; offset += MAX_DOCUMENTS_PER_REQUEST) {
      const documents = candidates
        .slice(offset, offset + MAX_DOCUMENTS_PER_REQUEST)
        .map((c) => c.content);
      const results = await this.rerank(query, documents, signal);
      for (const r of results) {
        if (Number.isInteger(r.index) && r.index >= 0 && r.index < documents.length) {
          scores[offset + r.index] = Math.min(1, Math.max(0, r.relevanceScore));
        }
      }
    }
    if (scores.some((s) => !Number.isFinite(s))) {
      throw new DependencyError('rerank_failed', 'Cohere rerank did not score every document.');
    }
    return scores;
  }

  private async rerank(
    query: string,
    documents: string[],
    signal?: AbortSignal,
  ): Promise<Array<{ index: number; relevanceScore: number }>> {
    try {
      const response = await this.client.rerank(
        { model: this.model, query, documents, topN: documents.length },
        { abortSignal: signal },
      );
      return response.results;
    } catch (error) {
      throw new DependencyError(
        'rerank_failed',
        `Cohere rerank failed: ${describe(error, signal)}`,
      );
    }
  }
}

/** A short, secret-free reason: the HTTP status and Cohere's `message`, when there is one. */
function describe(error: unknown, signal?: AbortSignal): string {
  if (signal?.aborted) {
    return 'aborted by the caller';
  }
  if (error instanceof CohereTimeoutError) {
    return 'timed out';
  }
  if (error instanceof CohereError && error.statusCode !== undefined) {
    const body = error.body as { message?: unknown } | undefined;
    const message = typeof body?.message === 'string' ? `: ${body.message}` : '';
    return `HTTP ${error.statusCode}${message}`;
  }
  return safeErrorText(error);
}
