import { EmbeddingService } from '@app/embedding';
import { PODIUM_CONTACTS, type PodiumContacts } from '@app/podium';
import { RedactionService } from '@app/redaction';
import { VECTOR_STORE, type VectorFilter, type VectorStore } from '@app/vector';
import { Inject, Injectable } from '@nestjs/common';

import { type LocationScope } from '../auth/principal';
import { assertContactInScope, scopedLocations } from '../auth/tenant';
import { type SearchRequestDto, type SearchResponseDto } from './search.dto';

/** Dense nearest-neighbour search over conversation history (the spec's `vector_query`). */
@Injectable()
export class SearchService {
  constructor(
    private readonly embedding: EmbeddingService,
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
    private readonly redaction: RedactionService,
    @Inject(PODIUM_CONTACTS) private readonly podium: PodiumContacts,
  ) {}

  /**
   * `scope`: a location-bound caller's locations. They filter the store's query, and a
   * contact the CRM places elsewhere is a 403; `undefined` searches unscoped.
   */
  async search(request: SearchRequestDto, scope?: LocationScope): Promise<SearchResponseDto> {
    const locations = scopedLocations(scope, request.location_uid);
    const [embedding] = await Promise.all([
      this.embedding.embedQuery(request.query),
      scope && request.contact_uid ? this.checkContact(request.contact_uid, scope) : undefined,
    ]);
    const filter: VectorFilter = {
      ...(request.contact_uid ? { contact_uid: request.contact_uid } : {}),
      ...(locations ? { location_uids: locations } : {}),
    };
    const hits = await this.store.search('conversations', {
      embedding,
      topK: request.top_k,
      filter,
    });
    return {
      query: request.query,
      contact_uid: request.contact_uid,
      top_k: request.top_k,
      hits: hits.map((h) => ({
        id: h.id,
        // Historical text never leaves unredacted, whatever the ingest path did.
        content: this.redaction.redact(h.content).text,
        score: Number(h.score.toFixed(6)),
        contact_uid: h.payload.contact_uid,
        conversation_uid: h.payload.conversation_uid,
        channel: h.payload.channel,
        occurred_at: h.payload.occurred_at,
      })),
    };
  }

  /** 403 when the CRM places the contact outside `scope`; unknown or unreachable: the filter decides. */
  private async checkContact(contactUid: string, scope: LocationScope): Promise<void> {
    const lookup = await this.podium.getContact(contactUid).catch(() => undefined);
    if (lookup?.status === 'found') {
      assertContactInScope(scope, lookup.contact.location_uid);
    }
  }
}
