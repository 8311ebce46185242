import { EmbeddingService } from '@app/embedding';
import { RedactionService } from '@app/redaction';
import { VECTOR_STORE, type VectorFilter, type VectorStore } from '@app/vector';
import { Inject, Injectable } from '@nestjs/common';

import { type LocationScope } from '../auth/principal';
import { scopedLocations } from '../auth/tenant';
import { type SearchRequestDto, type SearchResponseDto } from './search.dto';

/** Dense nearest-neighbour search over conversation history (the spec's `vector_query`). */
@Injectable()
export class SearchService {
  constructor(
    private readonly embedding: EmbeddingService,
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
    private readonly redaction: RedactionService,
  ) {}

  /**
   * `scope`: a location-bound caller's locations. They filter the store's query; naming a
   * location outside them is a 403. `undefined` searches unscoped.
   */
  async search(request: SearchRequestDto, scope?: LocationScope): Promise<SearchResponseDto> {
    const locations = scopedLocations(scope, request.location_uid);
    // A contact the CRM places outside a bound key's locations gets the same answer as an
    // unknown one (the filter decides, no 403 telling the key it exists elsewhere), so no
    // live lookup is needed here: the store's location filter is the tenant boundary.
    const embedding = await this.embedding.embedQuery(request.query);
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
}
