import {
  ConversationMessageEntity,
  ConversationPurgeEntity,
  ConversationWindowEntity,
  HistoryTombstoneEntity,
} from './conversation.entities';
import { EmbeddingModelEntity, EmbeddingReembedEntity } from './embedding-model.entity';
import { ErasureKeyEntity, ErasureReceiptEntity, HistoryRebuildEntity } from './erasure.entities';
import {
  LargeContactIndexEntity,
  LexicalContactStatsEntity,
  LexicalContactTermStatsEntity,
  LexicalDocStatsEntity,
  LexicalTermStatsEntity,
  MigrationHistoryEntity,
} from './lexical.entities';
import {
  PodiumContactEntity,
  PodiumContactTombstoneEntity,
  PodiumCredentialEntity,
  PodiumWebhookEventEntity,
} from './podium.entities';
import { vectorEntities } from './vector.entities';

export * from './conversation.entities';
export * from './embedding-model.entity';
export * from './erasure.entities';
export * from './lexical.entities';
export * from './podium.entities';
export { vectorEntities } from './vector.entities';

/** Every relational table's entity (the vector tables come from {@link vectorEntities}). */
export const RELATIONAL_ENTITIES = [
  ConversationMessageEntity,
  ConversationWindowEntity,
  HistoryTombstoneEntity,
  ConversationPurgeEntity,
  HistoryRebuildEntity,
  ErasureReceiptEntity,
  ErasureKeyEntity,
  PodiumContactEntity,
  PodiumContactTombstoneEntity,
  PodiumCredentialEntity,
  PodiumWebhookEventEntity,
  LexicalContactStatsEntity,
  LexicalContactTermStatsEntity,
  LexicalDocStatsEntity,
  LexicalTermStatsEntity,
  LargeContactIndexEntity,
  MigrationHistoryEntity,
  EmbeddingModelEntity,
  EmbeddingReembedEntity,
];

/** The whole schema as TypeORM entities, for a DataSource over a database of this dimension. */
export const allEntities = (dimension: number) => [
  ...RELATIONAL_ENTITIES,
  ...vectorEntities(dimension),
];
