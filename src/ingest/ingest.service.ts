import { contentHash, Cooperative, inSpan, uuidFromHash } from '@app/common';
import { StoreModelFollower } from '@app/database';
import { EmbeddingService } from '@app/embedding';
import { RedactionOffloadService } from '@app/redaction';
import { VECTOR_STORE, type VectorStore } from '@app/vector';
import { Inject, Injectable } from '@nestjs/common';

import { type LocationScope } from '../auth/principal';
import { assertRecordsInScope, assertUnbound } from '../auth/tenant';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ConversationMemory } from '../conversations/conversation-memory.service';
import { MetricsService } from '../metrics/metrics.service';
import {
  ConversationMessageDto,
  type IngestFailure,
  type IngestReport,
  KbTopicDto,
} from './ingest.dto';
import { type IngestBody, recordsFromBody, validateRecords } from './record-validation';
import { chunkText } from './text-chunker';

/** The counts of an ingest request, as span attributes. */
const reportAttributes = (report: IngestReport) => ({
  'ingest.received': report.received,
  'ingest.inserted': report.inserted,
  'ingest.skipped': report.skipped,
  'ingest.failed': report.failed.length,
});

/** Called after each stored batch, for the CLI's progress bar. */
export type ProgressListener = (done: number, total: number) => void;

/**
 * Validates, redacts, then hands conversation messages to {@link ConversationMemory} and KB
 * topics to the store. Ids are content hashes, so a re-run (after a crash or on purpose)
 * stores nothing twice; work commits in groups, so a crash loses at most the group in
 * flight, which the re-run then stores.
 */
@Injectable()
export class IngestService {
  constructor(
    private readonly embedding: EmbeddingService,
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
    private readonly redaction: RedactionOffloadService,
    private readonly metrics: MetricsService,
    private readonly memory: ConversationMemory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly follower: StoreModelFollower,
  ) {}

  /**
   * A `POST /ingest/conversations` body from a caller with `scope`: a location-bound key may
   * send only records carrying one of its locations, else 403 and nothing is stored.
   */
  async ingestConversationsBody(input: IngestBody, scope: LocationScope): Promise<IngestReport> {
    return inSpan(
      'ingest.conversations',
      async () => {
        const { records, failed } = await recordsFromBody(input, this.config.ingest.maxRecords);
        assertRecordsInScope(scope, records);
        return this.ingestConversations(records, failed, undefined, scope);
      },
      reportAttributes,
    );
  }

  /** A `POST /ingest/kb` body: the knowledge base is shared, so a bound key gets 403 first. */
  async ingestKbBody(input: IngestBody, scope: LocationScope): Promise<IngestReport> {
    assertUnbound(scope, 'the shared knowledge base');
    return inSpan(
      'ingest.kb',
      async () => {
        const { records, failed } = await recordsFromBody(input, this.config.ingest.maxRecords);
        return this.ingestKb(records, failed);
      },
      reportAttributes,
    );
  }

  async ingestConversations(
    records: unknown[],
    priorFailures: IngestFailure[] = [],
    onProgress?: ProgressListener,
    scope?: LocationScope,
  ): Promise<IngestReport> {
    const { valid, failed } = await validateRecords(ConversationMessageDto, records, priorFailures);
    // Second line of defence: history is stored already masked (retrieval redacts again).
    // A large message (an upload or SMS webhook) is masked on a worker, never on the loop.
    const cooperative = new Cooperative();
    const messages: (typeof valid)[number]['value'][] = [];
    for (const { value } of valid) {
      await cooperative.turn();
      messages.push({
        ...value,
        text: (await this.redaction.redact(value.text, 'background')).text,
      });
    }
    // Messages are stored once; each touched conversation's windows are rebuilt from all its
    // stored messages, so only windows whose content changed are embedded.
    const { inserted, skipped } = await this.memory.add(messages, onProgress, scope);
    this.count('conversations', inserted, skipped, failed.length);
    return { received: records.length, inserted, skipped, failed };
  }

  async ingestKb(
    records: unknown[],
    priorFailures: IngestFailure[] = [],
    onProgress?: ProgressListener,
  ): Promise<IngestReport> {
    const { valid, failed } = await validateRecords(KbTopicDto, records, priorFailures);
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
      // A reembed may switch the store between the embed and the write: again on the new model.
      const [a, b] = await this.follower.retryOnSwitch(async () => {
        const [chunkVectors, [summaryVector]] = await Promise.all([
          this.embedding.embedDocuments(chunks.map((c) => c.content)),
          this.embedding.embedDocuments([summary.content]),
        ]);
        const chunksWritten = await this.store.replaceTopic(
          'source_chunks',
          topic.topic_id,
          chunks.map((c, i) => ({ ...c, embedding: chunkVectors[i] })),
        );
        const summaryWritten = await this.store.replaceTopic('topic_summaries', topic.topic_id, [
          { ...summary, embedding: summaryVector },
        ]);
        return [chunksWritten, summaryWritten] as const;
      });
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
}
