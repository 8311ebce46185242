import { type CollectionName } from '../interfaces/vector-store.interface';

/** Table behind each logical collection. */
export const TABLES: Record<CollectionName, string> = {
  conversations: 'podium_conversations',
  source_chunks: 'kb_source_chunks',
  topic_summaries: 'kb_topic_summaries',
};

/** Payload columns per collection, in insert order, with their SQL array types for unnest. */
export const PAYLOAD_COLUMNS: { [C in CollectionName]: Array<[string, string]> } = {
  conversations: [
    ['contact_uid', 'text'],
    ['location_uid', 'text'],
    ['conversation_uid', 'text'],
    ['channel', 'text'],
    ['occurred_at', 'timestamptz'],
  ],
  source_chunks: [
    ['topic_id', 'text'],
    ['title', 'text'],
    ['theme_id', 'text'],
    ['chunk_index', 'int'],
  ],
  topic_summaries: [
    ['topic_id', 'text'],
    ['title', 'text'],
    ['theme_id', 'text'],
  ],
};
