import { DependencyError } from '@app/common';
import { Logger } from '@nestjs/common';

import { type CollectionName } from '../interfaces/vector-store.interface';
import { describeFailure, type QdrantClient, qdrantSdk } from './qdrant-sdk';

/** How to reach Qdrant and which collections to use (from `VectorModuleOptions`). */
export interface QdrantStoreOptions {
  /** `QDRANT_URL`, e.g. `http://qdrant:6333` or a Qdrant Cloud https URL. */
  url: string;
  /** `QDRANT_API_KEY`, sent as the `api-key` header. */
  apiKey?: string;
  /** Per request, and the most `init` waits for Qdrant before it gives up. */
  timeoutMs: number;
  /** Qdrant collection name per logical collection. */
  collections: Record<CollectionName, string>;
}

/**
 * The SDK client, the collection names and the one way a failed call becomes a
 * `vector_store_unavailable` DependencyError: shared by the store's read and write paths so
 * every message names the same credential-free origin.
 */
export class QdrantConnection {
  private readonly logger = new Logger('QdrantStore');
  readonly client: QdrantClient;
  /** Scheme, host and port only: never credentials, for messages and logs. */
  readonly origin: string;

  constructor(readonly options: QdrantStoreOptions) {
    const url = new URL(options.url);
    this.origin = url.origin;
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    if (options.apiKey && url.protocol === 'http:' && !loopback) {
      this.logger.warn(`QDRANT_API_KEY is sent over plain http to ${this.origin}`);
    }
    // The key goes in as the header the SDK would set: its `apiKey` option console.warns on
    // http URLs itself, outside our logger. The version probe is off: it would console.warn.
    this.client = new qdrantSdk.QdrantClient({
      url: options.url,
      timeout: options.timeoutMs,
      checkCompatibility: false,
      ...(options.apiKey ? { headers: { 'api-key': options.apiKey } } : {}),
    });
  }

  /** The Qdrant collection behind a logical collection. */
  name(collection: CollectionName): string {
    return this.options.collections[collection];
  }

  /** Runs one SDK call; any failure becomes a DependencyError naming the origin only. */
  async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw this.failure(error);
    }
  }

  failure(error: unknown): DependencyError {
    return new DependencyError(
      'vector_store_unavailable',
      describeFailure(error, this.origin, this.options.timeoutMs),
    );
  }
}
