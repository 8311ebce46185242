import { type SqlExecutor } from '@app/database';

/** Payload stored next to each vector, per collection. Field names follow the specs (snake_case). */
export interface CollectionPayloads {
  conversations: {
    contact_uid: string;
    location_uid: string | null;
    conversation_uid: string;
    channel: string;
    /** ISO-8601 timestamp of the window's last message. */
    occurred_at: string;
  };
  source_chunks: { topic_id: string; title: string; theme_id: string | null; chunk_index: number };
  topic_summaries: { topic_id: string; title: string; theme_id: string | null };
}

export type CollectionName = keyof CollectionPayloads;
export const COLLECTIONS: readonly CollectionName[] = [
  'conversations',
  'source_chunks',
  'topic_summaries',
];

export interface VectorRecord<C extends CollectionName = CollectionName> {
  /** Deterministic id derived from the content hash: re-ingesting upserts the same row. */
  id: string;
  content: string;
  embedding: number[];
  payload: CollectionPayloads[C];
}

export interface VectorHit<C extends CollectionName = CollectionName> {
  id: string;
  content: string;
  /** Cosine similarity for dense search; a text-rank score for lexical search. */
  score: number;
  /** Cosine similarity to `LexicalQuery.embedding`, when one was given to a lexical search. */
  similarity?: number;
  payload: CollectionPayloads[C];
}

/** Filters enforced inside the store's query, never after the fact. */
export interface VectorFilter {
  contact_uid?: string;
  /** Restrict to these locations (tenant scoping). */
  location_uids?: string[];
  /**
   * Conversation windows whose `occurred_at` lies in `[from, to)` (ISO-8601); other
   * collections have no time and ignore it.
   */
  occurred_at?: OccurredRange;
}

/** A half-open time range, `[from, to)`, as ISO-8601 timestamps. */
export interface OccurredRange {
  from: string;
  to: string;
}

export interface DenseQuery {
  embedding: number[];
  topK: number;
  filter?: VectorFilter;
  /** Drop hits whose cosine is below this. */
  scoreThreshold?: number;
  /**
   * Aborting stops the search: the call rejects with the signal's reason and the store
   * stops the work where it can (see each implementation).
   */
  signal?: AbortSignal;
}

export interface LexicalQuery {
  text: string;
  /** When given, each lexical hit also reports its cosine similarity to this vector. */
  embedding?: number[];
  topK: number;
  filter?: VectorFilter;
  /**
   * Aborting stops the search: the call rejects with the signal's reason and the store
   * stops the work where it can (see each implementation).
   */
  signal?: AbortSignal;
}

export interface HybridQuery {
  embedding: number[];
  text: string;
  /** Per list. */
  topK: number;
  filter?: VectorFilter;
  /**
   * Aborting stops the search: the call rejects with the signal's reason and the store
   * stops the work where it can (see each implementation).
   */
  signal?: AbortSignal;
}

/** Both first-stage lists; lexical hits carry `similarity` (cosine to the query vector). */
export interface HybridResult<C extends CollectionName> {
  dense: VectorHit<C>[];
  lexical: VectorHit<C>[];
}

export interface UpsertResult {
  inserted: number;
  skipped: number;
}

/** One conversation of one contact: the unit whose windows are rebuilt together. */
export interface ConversationKey {
  contact_uid: string;
  conversation_uid: string;
}

/**
 * Which conversation windows {@link VectorStore.replaceWindows} removes: the listed ids, or
 * every window of the listed conversations except `keep` (a full rebuild, which also drops
 * windows stored before messages were kept). Records being stored are never removed.
 */
export type WindowRemoval =
  { ids: string[] } | { allOtherWindowsOf: ConversationKey[]; keep: string[] };

/** The port every vector backend (pgvector, qdrant) implements. */
export interface VectorStore {
  /** Creates or migrates the schema and fails if its dimension differs from the embedder's. */
  init(dimension: number): Promise<void>;
  upsert<C extends CollectionName>(
    collection: C,
    records: VectorRecord<C>[],
  ): Promise<UpsertResult>;
  /**
   * Replaces every KB record of one topic with `records` atomically, so an edited topic
   * leaves no stale chunks behind and a re-run changes nothing.
   */
  replaceTopic<C extends 'source_chunks' | 'topic_summaries'>(
    collection: C,
    topicId: string,
    records: VectorRecord<C>[],
  ): Promise<UpsertResult>;
  /**
   * Stores new conversation windows and removes stale ones as one change: one transaction on
   * Postgres; on Qdrant one ordered batch (upsert, then delete), so a conversation is never
   * empty in between. Records already stored are skipped.
   */
  replaceWindows(
    records: VectorRecord<'conversations'>[],
    removal: WindowRemoval,
  ): Promise<UpsertResult>;
  search<C extends CollectionName>(collection: C, query: DenseQuery): Promise<VectorHit<C>[]>;
  lexicalSearch<C extends CollectionName>(
    collection: C,
    query: LexicalQuery,
  ): Promise<VectorHit<C>[]>;
  /** Dense and lexical lists for one query in one round trip (the /context hot path). */
  hybridSearch<C extends CollectionName>(
    collection: C,
    query: HybridQuery,
  ): Promise<HybridResult<C>>;
  /** Ids already stored, out of `ids` (lets ingestion skip embedding known chunks). */
  existingIds(collection: CollectionName, ids: string[]): Promise<Set<string>>;
  count(collection: CollectionName): Promise<number>;
  /**
   * Removes a contact's conversation history (CRM contact deleted, history forgotten), only
   * in `locationUids` when given and only windows up to `before` when given. A store that
   * deletes in batches stops between two when `signal` aborts (`complete: false`: call again).
   */
  deleteContact(
    contactUid: string,
    locationUids?: string[],
    options?: ContactDeletionOptions,
  ): Promise<ContactDeletion>;
  /**
   * Makes the contact's windows stored up to `before` (the database's clock) invisible to
   * every search at once, for a deletion that goes on in the background; a complete
   * `deleteContact` of the whole contact lifts it. Optional: a store whose deletion is one
   * quick call has no need.
   */
  hideContact?(contactUid: string, before: Date | string): Promise<void>;
  /**
   * A merge's move of the contact's windows on the caller's transaction (a store that lives
   * in the database), so messages and windows move together; returns rows moved. Optional:
   * otherwise `reassignContact` runs after the transaction.
   */
  moveContactIn?(tx: SqlExecutor, fromContactUid: string, toContactUid: string): Promise<number>;
  /**
   * Moves a contact's conversation history to another contact id (CRM contacts merged), so
   * the surviving contact's retrieval finds it; returns rows moved.
   */
  reassignContact(fromContactUid: string, toContactUid: string): Promise<number>;
  /**
   * Background upkeep the store needs as data grows (pgvector: a contact whose history grew
   * large gets its own HNSW index). Optional; run by the app on a timer, never on a request.
   */
  maintain?(signal?: AbortSignal): Promise<unknown>;
  /**
   * Whether upkeep is due now rather than on the next tick (pgvector: an ingest just ended
   * and left a contact past the per-contact index threshold). Optional; cheap, polled.
   */
  maintenanceDue?(): Promise<boolean>;
  /**
   * A few contacts that hold history, the largest first (the boot warm-up searches real
   * rows through each query plan). Optional: a store that cannot tell cheaply omits it.
   */
  sampleContacts?(): Promise<string[]>;
  /** Resolves true when the backend answers a trivial query. Never throws. */
  isHealthy(): Promise<boolean>;
  close(): Promise<void>;
}

export const VECTOR_STORE = 'VECTOR_STORE';

export interface ContactDeletionOptions {
  /**
   * Only windows stored at or before this time (the database's clock; see hideContact). A
   * string (ISO-8601) keeps the microseconds the database has and a Date drops.
   */
  before?: Date | string;
  /** Stops the deletion between two batches. */
  signal?: AbortSignal;
}

/** Windows removed, and whether none is left (false: stopped by its signal). */
export interface ContactDeletion {
  removed: number;
  complete: boolean;
}
