import { DomainError, InvalidInputError, withDeadline } from '@app/common';
import { EmbeddingService } from '@app/embedding';
import { RERANKER, type Reranker } from '@app/rerank';
import { Inject, Injectable } from '@nestjs/common';

import { CallerShares } from '../common/caller-shares';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { AdmissionGate } from './admission-gate';
import { type RelevanceRequestDto, type RelevanceResponseDto } from './relevance.dto';

/** The share of the deadline a call may wait for a slot before it is refused. */
const MAX_WAIT_SHARE = 0.25;

/** What a refused caller is told to wait, in seconds. */
const RETRY_AFTER_S = 1;

function dot(a: number[], b: number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    s += a[i] * b[i];
  }
  return s;
}

const cosine = (a: number[], b: number[]) => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));

/** Every scoring slot stayed busy for the call's whole wait budget (503). */
export class OverloadedError extends DomainError {
  constructor(maxInFlight: number) {
    super(
      'overloaded',
      `${maxInFlight} relevance call(s) already running (RELEVANCE_MAX_INFLIGHT); retry shortly.`,
      503,
      { retry_after_s: RETRY_AFTER_S },
    );
  }
}

/** The scoring did not finish inside RELEVANCE_TIMEOUT_MS (503); its work was stopped. */
export class RelevanceTimeoutError extends DomainError {
  constructor(timeoutMs: number) {
    super(
      'relevance_timeout',
      `Scoring did not finish within ${timeoutMs} ms (RELEVANCE_TIMEOUT_MS); send fewer or shorter candidates.`,
      503,
    );
  }
}

/**
 * The spec's `relevance_score`: how relevant each candidate is to the query, in [0, 1], from
 * the configured reranker (fed the embedder's cosine, as retrieval feeds it). HTTP and CLI.
 *
 * A call may carry 100 candidates of 20,000 characters, seconds of embedding and scanning,
 * so it runs under its own deadline and admission gate: past RELEVANCE_MAX_INFLIGHT calls a
 * new one waits at most a quarter of the deadline for a slot, then gets 503 `overloaded`;
 * past the deadline the work is aborted and the caller gets 503 `relevance_timeout`. A slot is
 * held until the work has actually stopped, not merely until the answer left. One caller may
 * hold only its share of the slots, waiting ones included (see {@link score}).
 */
@Injectable()
export class RelevanceService {
  private readonly gate: AdmissionGate;
  /** One caller may hold at most half the slots (at least one), waiting ones included. */
  private readonly shares: CallerShares;

  constructor(
    private readonly embedding: EmbeddingService,
    @Inject(RERANKER) private readonly reranker: Reranker,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.gate = new AdmissionGate(config.relevance.maxInFlight);
    this.shares = new CallerShares(Math.max(1, Math.floor(config.relevance.maxInFlight / 2)));
  }

  /**
   * `caller` (an API key's name, or the client IP): it may have at most half the slots
   * (at least one) running or waiting, so one tenant's burst cannot fill the gate every
   * tenant shares; its next call is refused at once instead. The CLI passes none.
   */
  async score(request: RelevanceRequestDto, caller?: string): Promise<RelevanceResponseDto> {
    if (caller === undefined) {
      return this.admitted(request);
    }
    const release = this.shares.take(caller);
    if (!release) {
      throw new OverloadedError(this.config.relevance.maxInFlight);
    }
    try {
      return await this.admitted(request);
    } finally {
      release();
    }
  }

  private async admitted(request: RelevanceRequestDto): Promise<RelevanceResponseDto> {
    const { query, candidate, candidates } = request;
    const texts = candidates ?? (candidate !== undefined ? [candidate] : []);
    if (texts.length === 0 || (candidate !== undefined && candidates !== undefined)) {
      throw new InvalidInputError(
        'invalid_candidates',
        'Give exactly one of `candidate` or `candidates`.',
      );
    }
    const { timeoutMs, maxInFlight } = this.config.relevance;
    const started = performance.now();
    const release = await this.gate.acquire(timeoutMs * MAX_WAIT_SHARE);
    if (!release) {
      throw new OverloadedError(maxInFlight);
    }
    const left = timeoutMs - (performance.now() - started);
    const outcome = await withDeadline(left, (signal) =>
      this.compute(query, texts, signal).finally(release),
    );
    switch (outcome.status) {
      case 'ok':
        return {
          query,
          reranker: this.reranker.name,
          ...(candidate !== undefined ? { score: outcome.value[0] } : {}),
          scores: outcome.value,
        };
      case 'timeout':
        throw new RelevanceTimeoutError(timeoutMs);
      case 'error':
        throw outcome.error;
    }
  }

  private async compute(query: string, texts: string[], signal: AbortSignal): Promise<number[]> {
    const [queryVector, vectors] = await Promise.all([
      this.embedding.embedQuery(query, signal),
      this.embedding.embedDocuments(texts, signal),
    ]);
    const pool = texts.map((content, i) => ({
      id: String(i),
      content,
      denseScore: cosine(queryVector, vectors[i]),
    }));
    const scores = await this.reranker.score(query, pool, signal);
    return scores.map((s) => Number(s.toFixed(6)));
  }
}
