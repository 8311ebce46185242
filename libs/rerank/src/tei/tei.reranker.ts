import { DependencyError, safeErrorText } from '@app/common';

import { type RerankCandidate, type Reranker } from '../interfaces/reranker.interface';

export interface TeiRerankerOptions {
  /** Base URL of a text-embeddings-inference server running a reranker (e.g. bge-reranker-base). */
  url: string;
  /** Per-request ceiling when the caller passes no deadline of its own. */
  timeoutMs?: number;
  /** The server's `--max-client-batch-size`; larger pools are split into several requests. */
  maxClientBatch?: number;
}

/** TEI's default `--max-client-batch-size`. */
const DEFAULT_MAX_CLIENT_BATCH = 32;

interface TeiRank {
  index: number;
  score: number;
}

/**
 * A cross-encoder behind HuggingFace text-embeddings-inference (`POST /rerank`). TEI has no
 * official JS client, so this is plain `fetch`. With `raw_scores: false` TEI applies the
 * model's sigmoid, so bge-reranker scores arrive in [0, 1]; they are clamped all the same in
 * case the server hosts a model without that activation.
 */
export class TeiReranker implements Reranker {
  readonly name = 'tei' as const;
  private readonly maxBatch: number;

  constructor(private readonly options: TeiRerankerOptions) {
    this.maxBatch = Math.max(1, options.maxClientBatch ?? DEFAULT_MAX_CLIENT_BATCH);
  }

  async score(
    query: string,
    candidates: RerankCandidate[],
    signal?: AbortSignal,
  ): Promise<number[]> {
    if (candidates.length === 0) {
      return [];
    }
    // Batches run in parallel (TEI queues and batches server-side); the first failure aborts
    // the rest, so a dead server costs one round trip, not one per batch.
    const sibling = new AbortController();
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 10_000);
    const combined = AbortSignal.any(
      signal ? [sibling.signal, timeout, signal] : [sibling.signal, timeout],
    );
    const texts = candidates.map((c) => c.content);
    const batches: Array<Promise<TeiRank[]>> = [];
    for (let offset = 0; offset < texts.length; offset += this.maxBatch) {
      const slice = texts.slice(offset, offset + this.maxBatch);
      batches.push(
        this.post(query, slice, combined, { caller: signal, timeout }).then((ranks) =>
          ranks.map((r) => ({ index: r.index + offset, score: r.score })),
        ),
      );
    }
    let ranks: TeiRank[];
    try {
      ranks = (await Promise.all(batches)).flat();
    } catch (error) {
      sibling.abort();
      throw error;
    }

    const scores = new Array<number>(candidates.length).fill(NaN);
    for (const r of ranks) {
      scores[r.index] = Math.min(1, Math.max(0, r.score));
    }
    if (scores.some((s) => Number.isNaN(s))) {
      throw new DependencyError('rerank_failed', 'TEI /rerank did not score every text.');
    }
    return scores;
  }

  private async post(
    query: string,
    texts: string[],
    signal: AbortSignal,
    why: { caller?: AbortSignal; timeout: AbortSignal },
  ): Promise<TeiRank[]> {
    let response: Response;
    try {
      response = await fetch(new URL('/rerank', this.options.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, texts, raw_scores: false, truncate: true }),
        signal,
      });
    } catch (error) {
      throw new DependencyError('rerank_failed', `TEI /rerank ${failureReason(error, why)}`);
    }
    if (!response.ok) {
      const detail = await errorDetail(response);
      throw new DependencyError(
        'rerank_failed',
        `TEI /rerank answered HTTP ${response.status}${detail ? `: ${detail}` : ''}`,
      );
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (!isRankList(body, texts.length)) {
      throw new DependencyError('rerank_failed', 'TEI /rerank returned an unexpected body.');
    }
    return body;
  }
}

function failureReason(
  error: unknown,
  why: { caller?: AbortSignal; timeout: AbortSignal },
): string {
  if (why.caller?.aborted) {
    return 'aborted by the caller';
  }
  if (why.timeout.aborted) {
    return 'timed out';
  }
  return `unreachable: ${safeErrorText(error)}`;
}

/** TEI's JSON error body `{ error, error_type }`, or axum's plain-text rejection. */
async function errorDetail(response: Response): Promise<string> {
  const raw = await response.text().catch(() => '');
  try {
    const parsed = JSON.parse(raw) as { error?: unknown; error_type?: unknown };
    if (typeof parsed.error === 'string') {
      return typeof parsed.error_type === 'string'
        ? `${parsed.error_type}: ${parsed.error}`
        : parsed.error;
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  return raw.slice(0, 200);
}

function isRankList(body: unknown, count: number): body is TeiRank[] {
  return (
    Array.isArray(body) &&
    body.every(
      (r: unknown) =>
        typeof r === 'object' &&
        r !== null &&
        Number.isInteger((r as TeiRank).index) &&
        (r as TeiRank).index >= 0 &&
        (r as TeiRank).index < count &&
        Number.isFinite((r as TeiRank).score),
    )
  );
}
