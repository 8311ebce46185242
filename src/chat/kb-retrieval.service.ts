import { DependencyError, DomainError, withDeadline } from '@app/common';
import { CURRICULUM_SOURCE, type CurriculumSource } from '@app/curriculum';
import { EmbeddingService } from '@app/embedding';
import { RERANKER, type Reranker } from '@app/rerank';
import { VECTOR_STORE, type VectorStore } from '@app/vector';
import { Inject, Injectable, Logger } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { hybridKbHits } from './kb-hybrid';
import { type KbHit, type MergedKb, mergeKbHits } from './merge-kb-hits';

/** The spec's per-collection limits and merged size. */
const SOURCE_CHUNK_LIMIT = 5;
const TOPIC_SUMMARY_LIMIT = 3;
const MERGED_LIMIT = 6;
/** Retrieval is a few ms on a healthy store; past this something is wrong. */
const RETRIEVAL_TIMEOUT_MS = 5000;
/** The theme only nudges ranking, so a slow curriculum source must not hold the answer. */
const CURRICULUM_TIMEOUT_MS = 1500;

export interface KbRetrieval extends MergedKb {
  /** The employee's current-week theme, or null (none, or the source did not answer). */
  currentThemeId: string | null;
  threshold: number;
}

/**
 * The R42 retrieval pipeline (spec steps 1 to 5): embed once, hybrid-search and rerank both
 * KB collections in parallel (`hybridKbHits`), gate on the embedder's calibrated threshold,
 * boost the current week's theme, merge.
 */
@Injectable()
export class KbRetrievalService {
  private readonly logger = new Logger(KbRetrievalService.name);

  constructor(
    private readonly embedding: EmbeddingService,
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
    @Inject(RERANKER) private readonly reranker: Reranker,
    @Inject(CURRICULUM_SOURCE) private readonly curriculum: CurriculumSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Throws `user_not_found` (404) or `retrieval_failed` (503); both precede the stream.
   * Without `userId` (retrieval for other agents, e.g. the MCP `kb_search` tool) nothing is
   * boosted: there is no employee, so no current week.
   */
  async retrieve(
    query: string,
    userId: string | undefined,
    signal: AbortSignal,
  ): Promise<KbRetrieval> {
    const [currentThemeId, hits] = await Promise.all([
      userId === undefined ? null : this.currentTheme(userId, signal),
      this.search(query, signal),
    ]);
    const merged = mergeKbHits(hits, {
      currentThemeId,
      boost: this.config.chat.themeBoost,
      limit: MERGED_LIMIT,
    });
    return { ...merged, currentThemeId, threshold: this.threshold };
  }

  private get threshold(): number {
    return this.embedding.info.defaultThreshold;
  }

  private async search(query: string, signal: AbortSignal): Promise<KbHit[]> {
    const outcome = await withDeadline(RETRIEVAL_TIMEOUT_MS, (deadline) =>
      this.searchBoth(query, AbortSignal.any([signal, deadline])),
    );
    if (outcome.status === 'ok') {
      return outcome.value;
    }
    const reason = outcome.status === 'timeout' ? 'timeout' : (outcome.error as Error).name;
    this.logger.warn(`KB retrieval failed: ${reason}`);
    throw new DependencyError('retrieval_failed', 'The knowledge base could not be searched.');
  }

  private async searchBoth(query: string, signal: AbortSignal): Promise<KbHit[]> {
    const embedding = await this.embedding.embedQuery(query, signal);
    return hybridKbHits(
      this.store,
      this.reranker,
      { text: query, embedding },
      {
        poolK: this.config.context.poolK,
        limits: { source_chunks: SOURCE_CHUNK_LIMIT, topic_summaries: TOPIC_SUMMARY_LIMIT },
        threshold: this.threshold,
        signal,
      },
    );
  }

  private async currentTheme(userId: string, signal: AbortSignal): Promise<string | null> {
    const outcome = await withDeadline(CURRICULUM_TIMEOUT_MS, (deadline) =>
      this.curriculum.currentWeek(userId, AbortSignal.any([signal, deadline])),
    );
    if (outcome.status !== 'ok') {
      // Degrade to unboosted results: the boost is a nudge, an outage must not stop answers.
      const reason = outcome.status === 'timeout' ? 'timeout' : (outcome.error as Error).name;
      this.logger.warn(`curriculum lookup failed (${reason}); answering without the theme boost`);
      return null;
    }
    if (outcome.value.status === 'user_not_found') {
      throw new DomainError('user_not_found', 'No employee with this userId.', 404);
    }
    return outcome.value.themeId;
  }
}
