import { contentHash, uuidFromHash } from '@app/common';
import { EmbeddingService } from '@app/embedding';
import { RedactionService } from '@app/redaction';
import {
  type CollectionName,
  type CollectionPayloads,
  VECTOR_STORE,
  type VectorRecord,
  type VectorStore,
} from '@app/vector';
import { Inject, Injectable } from '@nestjs/common';

import { MetricsService } from '../metrics/metrics.service';
import { chunkConversations } from './conversation-chunker';
import {
  ConversationMessageDto,
  type IngestFailure,
  type IngestReport,
  KbTopicDto,
} from './ingest.dto';
import { validateRecords } from './record-validation';
import { chunkText } from './text-chunker';

/** Called after each stored batch, for the CLI's progress bar. */
export type ProgressListener = (done: number, total: number) => void;

interface PendingRecord<C extends CollectionName> {
  id: string;
  content: string;
  payload: CollectionPayloads[C];
}

/** Embedding batch: big enough to keep both embedder workers busy, small enough to commit often. */
const BATCH = 64;

/**
 * Validates, chunks, embeds and upserts. Ids are content hashes, so a re-run (after a crash or
 * on purpose) stores nothing twice; each batch commits on its own, so a crash loses at most
 * the batch in flight, which the re-run then stores.
 */
@Injectable()
export class IngestService {
  constructor(
    private readonly embedding: EmbeddingService,
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
    private readonly redaction: RedactionService,
    private readonly metrics: MetricsService,
  ) {}

  async ingestConversations(
    records: unknown[],
    priorFailures: IngestFailure[] = [],
    onProgress?: ProgressListener,
  ): Promise<IngestReport> {
    const { valid, failed } = validateRecords(ConversationMessageDto, records, priorFailures);
    // Second line of defence: history is stored already masked (retrieval redacts again).
    const messages = valid.map(({ value }) => ({
      ...value,
      text: this.redaction.redact(value.text).text,
    }));
    const windows = chunkConversations(messages);
    const pending: Array<PendingRecord<'conversations'>> = windows.map(
      ({ content, ...payload }) => ({
        id: uuidFromHash(
          contentHash('conversation', payload.contact_uid, payload.conversation_uid, content),
        ),
        content,
        payload,
      }),
    );
    const { inserted, skipped } = await this.storeInBatches('conversations', pending, onProgress);
    this.count('conversations', inserted, skipped, failed.length);
    return { received: records.length, inserted, skipped, failed };
  }

  async ingestKb(
    records: unknown[],
    priorFailures: IngestFailure[] = [],
    onProgress?: ProgressListener,
  ): Promise<IngestReport> {
    const { valid, failed } = validateRecords(KbTopicDto, records, priorFailures);
    let inserted = 0;
    let skipped = 0;
    for (const [done, { value: topic }] of valid.entries()) {
      const theme_id = topic.theme_id ?? null;
      const chunks = chunkText(topic.text).map((content, chunk_index) => ({
        id: uuidFromHash(
          contentHash('source_chunk', topic.topic_id, String(chunk_index), topic.title, content),
        ),
        content,
        payload: { topic_id: topic.topic_id, title: topic.title, theme_id, chunk_index },
      }));
      const summary = {
        id: uuidFromHash(contentHash('topic_summary', topic.topic_id, topic.title, topic.summary)),
        content: topic.summary.trim(),
        payload: { topic_id: topic.topic_id, title: topic.title, theme_id },
      };
      const [chunkVectors, [summaryVector]] = await Promise.all([
        this.embedding.embedDocuments(chunks.map((c) => c.content)),
        this.embedding.embedDocuments([summary.content]),
      ]);
      const a = await this.store.replaceTopic(
        'source_chunks',
        topic.topic_id,
        chunks.map((c, i) => ({ ...c, embedding: chunkVectors[i] })),
      );
      const b = await this.store.replaceTopic('topic_summaries', topic.topic_id, [
        { ...summary, embedding: summaryVector },
      ]);
      inserted += a.inserted + b.inserted;
      skipped += a.skipped + b.skipped;
      onProgress?.(done + 1, valid.length);
    }
    this.count('kb', inserted, skipped, failed.length);
    return { received: records.length, inserted, skipped, failed };
  }

  private count(collection: string, inserted: number, skipped: number, failed: number): void {
    this.metrics.ingested.inc({ collection, outcome: 'inserted' }, inserted);
    this.metrics.ingested.inc({ collection, outcome: 'skipped' }, skipped);
    this.metrics.ingested.inc({ collection, outcome: 'failed_record' }, failed);
  }

  /** Skips ids already stored (no embedding spent on them), then embeds and stores in batches. */
  private async storeInBatches<C extends CollectionName>(
    collection: C,
    pending: Array<PendingRecord<C>>,
    onProgress?: ProgressListener,
  ): Promise<{ inserted: number; skipped: number }> {
    const unique = [...new Map(pending.map((p) => [p.id, p])).values()];
    let skipped = pending.length - unique.length;
    let inserted = 0;
    for (let i = 0; i < unique.length; i += BATCH) {
      const batch = unique.slice(i, i + BATCH);
      const existing = await this.store.existingIds(
        collection,
        batch.map((p) => p.id),
      );
      const fresh = batch.filter((p) => !existing.has(p.id));
      const vectors = await this.embedding.embedDocuments(fresh.map((p) => p.content));
      const records: Array<VectorRecord<C>> = fresh.map((p, j) => ({
        ...p,
        embedding: vectors[j],
      }));
      const result = await this.store.upsert(collection, records);
      inserted += result.inserted;
      skipped += existing.size + result.skipped;
      onProgress?.(Math.min(i + BATCH, unique.length), unique.length);
    }
    return { inserted, skipped };
  }
}
