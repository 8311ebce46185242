import { type CollectionName, QdrantStore } from '@app/vector';

import { qdrantSdk } from '../../libs/vector/src/qdrant/qdrant-sdk';

/**
 * Helpers for running stores against Qdrant in tests: a contract server or, when `QDRANT_URL`
 * is set in the environment, a real one (with `QDRANT_API_KEY` if it needs a key).
 */

export const REAL_QDRANT = process.env.QDRANT_URL
  ? { url: process.env.QDRANT_URL, apiKey: process.env.QDRANT_API_KEY || undefined }
  : undefined;

let runs = 0;

/** Collection names unique to this run, so a shared real server is never trampled. */
export function testCollections(label: string): Record<CollectionName, string> {
  const prefix = `cb_test_${label}_${process.pid}_${Date.now().toString(36)}_${runs++}`;
  return {
    conversations: `${prefix}_conversations`,
    source_chunks: `${prefix}_source_chunks`,
    topic_summaries: `${prefix}_topic_summaries`,
  };
}

/** A store on `url` with fresh collections, and a close() that drops them again. */
export function qdrantStoreOn(
  target: { url: string; apiKey?: string },
  label: string,
  timeoutMs = 10_000,
): { store: QdrantStore; collections: Record<CollectionName, string>; close(): Promise<void> } {
  const collections = testCollections(label);
  const store = new QdrantStore({ ...target, timeoutMs, collections });
  return {
    store,
    collections,
    close: () => dropCollections(target, Object.values(collections)),
  };
}

/** A raw official client (for setup a test needs and the provider never does). */
export function rawClient(target: { url: string; apiKey?: string }) {
  return new qdrantSdk.QdrantClient({
    url: target.url,
    checkCompatibility: false,
    ...(target.apiKey ? { headers: { 'api-key': target.apiKey } } : {}),
  });
}

export async function dropCollections(
  target: { url: string; apiKey?: string },
  names: string[],
): Promise<void> {
  const client = rawClient(target);
  await Promise.all(names.map((name) => client.deleteCollection(name).catch(() => undefined)));
}
