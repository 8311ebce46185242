import { ConfigurationError } from '@app/common';
import { Logger } from '@nestjs/common';

import { type CollectionName, type CollectionPayloads } from '../interfaces/vector-store.interface';
import { httpStatus, type QdrantClient, type Schemas } from './qdrant-sdk';

/** Name of the sparse (BM25) vector next to the unnamed dense one. */
export const SPARSE_VECTOR = 'bm25';

/** Payload key holding the text; the R42 chat service reads chunks as `payload.text`. */
export const TEXT_KEY = 'text';

/** Payload fields per collection, as the port returns them (the text is not among them). */
export const PAYLOAD_FIELDS: { [C in CollectionName]: Array<keyof CollectionPayloads[C]> } = {
  conversations: ['contact_uid', 'location_uid', 'conversation_uid', 'channel', 'occurred_at'],
  source_chunks: ['topic_id', 'title', 'theme_id', 'chunk_index'],
  topic_summaries: ['topic_id', 'title', 'theme_id'],
};

/**
 * Keyword indexes for every field the store filters on or Qdrant Cloud's strict mode would
 * refuse to filter without. `contact_uid` is flagged as the tenant key: most history queries
 * are one contact's, and Qdrant then keeps each contact's points together on disk.
 */
const PAYLOAD_INDEXES: Record<CollectionName, Array<[string, Schemas['PayloadFieldSchema']]>> = {
  conversations: [
    ['contact_uid', { type: 'keyword', is_tenant: true }],
    ['location_uid', 'keyword'],
    // Rebuilding a conversation's windows deletes by (contact_uid, conversation_uid).
    ['conversation_uid', 'keyword'],
    // The time range of a question that names a date (a datetime range filter).
    ['occurred_at', 'datetime'],
  ],
  source_chunks: [
    ['topic_id', 'keyword'],
    ['theme_id', 'keyword'],
  ],
  topic_summaries: [
    ['topic_id', 'keyword'],
    ['theme_id', 'keyword'],
  ],
};

/** The setting that renames each collection, quoted in messages that tell how to fix things. */
const SETTING: Record<CollectionName, string> = {
  conversations: 'QDRANT_COLLECTION_CONVERSATIONS',
  source_chunks: 'QDRANT_COLLECTION_SOURCE_CHUNKS',
  topic_summaries: 'QDRANT_COLLECTION_TOPIC_SUMMARIES',
};

const logger = new Logger('QdrantStore');

async function getCollection(
  client: QdrantClient,
  name: string,
): Promise<Schemas['CollectionInfo'] | undefined> {
  try {
    return await client.getCollection(name);
  } catch (error) {
    if (httpStatus(error) === 404) {
      return undefined;
    }
    throw error;
  }
}

/** Fails with the fix when an existing collection cannot hold what this service stores. */
function assertCompatible(
  info: Schemas['CollectionInfo'],
  name: string,
  logical: CollectionName,
  dimension: number,
): void {
  const { vectors: config, sparse_vectors } = info.config.params;
  const setting = SETTING[logical];
  // Unnamed: `{size, distance}`; named: a map of those (which could even have a `size` key).
  const vectors =
    config && 'size' in config && typeof config.size === 'number'
      ? (config as Schemas['VectorParams'])
      : undefined;
  if (!vectors) {
    throw new ConfigurationError(
      `Qdrant collection \`${name}\` has named dense vectors; this service stores the unnamed ` +
        `default vector (the layout the R42 chat service searches). Set ${setting} to a new ` +
        `collection name; it is created on start-up.`,
    );
  }
  if (vectors.size !== dimension) {
    throw new ConfigurationError(
      `Vector dimension mismatch: Qdrant collection \`${name}\` holds ${vectors.size}-d ` +
        `vectors but the embedder produces ${dimension}-d. Use the embedding model the data ` +
        `was ingested with, or set ${setting} to a new collection name (or delete the ` +
        `collection) and re-ingest.`,
    );
  }
  if (vectors.distance !== 'Cosine') {
    throw new ConfigurationError(
      `Qdrant collection \`${name}\` uses ${vectors.distance} distance; scores and thresholds ` +
        `here are cosine similarities. Set ${setting} to a new collection name and re-ingest.`,
    );
  }
  if (sparse_vectors?.[SPARSE_VECTOR]?.modifier !== 'idf') {
    throw new ConfigurationError(
      `Qdrant collection \`${name}\` has no \`${SPARSE_VECTOR}\` sparse vector with the idf ` +
        `modifier, which lexical retrieval needs (it was not created by this service). Set ` +
        `${setting} to a new collection name; it is created on start-up. Then re-ingest.`,
    );
  }
}

/**
 * Creates the collection (dense `dimension`-d Cosine + sparse BM25 with idf) if it is
 * missing, checks it if it exists, and adds any missing payload index. Idempotent, and safe
 * against another instance creating the same collection at the same time (409).
 */
export async function ensureCollection(
  client: QdrantClient,
  name: string,
  logical: CollectionName,
  dimension: number,
): Promise<void> {
  let info = await getCollection(client, name);
  if (!info) {
    try {
      await client.createCollection(name, {
        vectors: { size: dimension, distance: 'Cosine' },
        sparse_vectors: { [SPARSE_VECTOR]: { modifier: 'idf' } },
      });
      logger.log(`created Qdrant collection ${name} (${dimension}-d, Cosine + ${SPARSE_VECTOR})`);
    } catch (error) {
      if (httpStatus(error) !== 409) {
        throw error;
      }
    }
    info = await client.getCollection(name);
  }
  assertCompatible(info, name, logical, dimension);
  for (const [field, schema] of PAYLOAD_INDEXES[logical]) {
    if (!info.payload_schema[field]) {
      await client.createPayloadIndex(name, {
        wait: true,
        field_name: field,
        field_schema: schema,
      });
    }
  }
}
