import {
  type CollectionName,
  type ContactDeletion,
  type UpsertResult,
  type VectorRecord,
  type WindowRemoval,
} from '../interfaces/vector-store.interface';
import { type QdrantConnection } from './qdrant-connection';
import { toPoint, toQdrantFilter, uniqueById, windowOperations } from './qdrant-requests';
import { type Schemas } from './qdrant-sdk';

/**
 * The store's write paths. Every write waits for Qdrant to apply it (`wait: true`), and a
 * replacement is one ordered batch, so a reader never sees a topic or window set half-done.
 */
export class QdrantWrites {
  constructor(private readonly qdrant: QdrantConnection) {}

  async upsert<C extends CollectionName>(
    collection: C,
    records: VectorRecord<C>[],
  ): Promise<UpsertResult> {
    const fresh = await this.freshRecords(collection, records);
    if (fresh.length) {
      await this.qdrant.call(() =>
        this.qdrant.client.upsert(this.qdrant.name(collection), {
          wait: true,
          points: fresh.map(toPoint),
        }),
      );
    }
    return { inserted: fresh.length, skipped: records.length - fresh.length };
  }

  /**
   * One ordered batch: upsert the new chunks, then delete the topic's points that are not in
   * `records`. The topic is never empty in between, and no stale chunk survives.
   */
  async replaceTopic<C extends 'source_chunks' | 'topic_summaries'>(
    collection: C,
    topicId: string,
    records: VectorRecord<C>[],
  ): Promise<UpsertResult> {
    const fresh = await this.freshRecords(collection, records);
    const keep = uniqueById(records).map((r) => r.id);
    const operations: Schemas['UpdateOperation'][] = [];
    if (fresh.length) {
      operations.push({ upsert: { points: fresh.map(toPoint) } });
    }
    operations.push({
      delete: {
        filter: {
          must: [{ key: 'topic_id', match: { value: topicId } }],
          ...(keep.length ? { must_not: [{ has_id: keep }] } : {}),
        },
      },
    });
    await this.qdrant.call(() =>
      this.qdrant.client.batchUpdate(this.qdrant.name(collection), { wait: true, operations }),
    );
    return { inserted: fresh.length, skipped: records.length - fresh.length };
  }

  /** One ordered batch: upsert the new windows, then delete the stale ones. */
  async replaceWindows(
    records: VectorRecord<'conversations'>[],
    removal: WindowRemoval,
  ): Promise<UpsertResult> {
    const fresh = await this.freshRecords('conversations', records);
    const operations = windowOperations(fresh, records, removal);
    if (operations.length) {
      await this.qdrant.call(() =>
        this.qdrant.client.batchUpdate(this.qdrant.name('conversations'), {
          wait: true,
          operations,
        }),
      );
    }
    return { inserted: fresh.length, skipped: records.length - fresh.length };
  }

  async existingIds(collection: CollectionName, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) {
      return new Set();
    }
    const found = await this.qdrant.call(() =>
      this.qdrant.client.retrieve(this.qdrant.name(collection), {
        ids,
        with_payload: false,
        with_vector: false,
      }),
    );
    return new Set(found.map((p) => String(p.id)));
  }

  /**
   * Counts, then deletes by filter: Qdrant's delete does not say how many points it removed.
   * One call, always complete; `before` is not applied (every window of the contact goes).
   */
  async deleteContact(contactUid: string, locationUids?: string[]): Promise<ContactDeletion> {
    if (locationUids?.length === 0) {
      return { removed: 0, complete: true };
    }
    const filter = toQdrantFilter({
      contact_uid: contactUid,
      location_uids: locationUids,
    }) as Schemas['Filter'];
    const name = this.qdrant.name('conversations');
    const { count } = await this.qdrant.call(() =>
      this.qdrant.client.count(name, { exact: true, filter }),
    );
    if (count > 0) {
      await this.qdrant.call(() => this.qdrant.client.delete(name, { wait: true, filter }));
    }
    return { removed: count, complete: true };
  }

  /** Re-keys the payload in place; points keep their ids, as rows do on pgvector. */
  async reassignContact(fromContactUid: string, toContactUid: string): Promise<number> {
    const filter = toQdrantFilter({ contact_uid: fromContactUid }) as Schemas['Filter'];
    const name = this.qdrant.name('conversations');
    const { count } = await this.qdrant.call(() =>
      this.qdrant.client.count(name, { exact: true, filter }),
    );
    if (count > 0) {
      await this.qdrant.call(() =>
        this.qdrant.client.setPayload(name, {
          wait: true,
          payload: { contact_uid: toContactUid },
          filter,
        }),
      );
    }
    return count;
  }

  /** `records` minus duplicates and ids already stored (pgvector's `ON CONFLICT DO NOTHING`). */
  private async freshRecords<C extends CollectionName>(
    collection: C,
    records: VectorRecord<C>[],
  ): Promise<VectorRecord<C>[]> {
    const unique = uniqueById(records);
    const existing = await this.existingIds(
      collection,
      unique.map((r) => r.id),
    );
    return unique.filter((r) => !existing.has(r.id));
  }
}
