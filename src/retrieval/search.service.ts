import { withDeadline } from '@app/common';
import { EmbeddingService } from '@app/embedding';
import { outgoingLabel, RedactionService } from '@app/redaction';
import { VECTOR_STORE, type VectorFilter, type VectorStore } from '@app/vector';
import { Inject, Injectable } from '@nestjs/common';

import { type LocationScope } from '../auth/principal';
import { scopedLocations } from '../auth/tenant';
import { CallerShares } from '../common/caller-shares';
import { AdmissionGate } from '../context/admission-gate';
import { type SearchRequestDto, type SearchResponseDto } from './search.dto';
import {
  SEARCH_MAX_INFLIGHT,
  SEARCH_MAX_WAIT_MS,
  SEARCH_TIMEOUT_MS,
  SearchBusyError,
  SearchTimeoutError,
} from './search-bounds';

/**
 * Dense nearest-neighbour search over conversation history (the spec's `vector_query`).
 * Each call runs under a deadline and an admission gate of its own, so a flood of searches
 * (one MCP batch, one busy key) cannot queue without end on the embedder and the store that
 * `/context` needs: past SEARCH_MAX_INFLIGHT a call waits briefly, then 503 `search_busy`;
 * past the deadline, or when the caller leaves, its work is aborted (503 `search_timeout`).
 */
@Injectable()
export class SearchService {
  private readonly gate = new AdmissionGate(SEARCH_MAX_INFLIGHT);
  /** A location-bound key (by its scope) may hold at most half the slots, waiting included. */
  private readonly shares = new CallerShares(SEARCH_MAX_INFLIGHT / 2);

  constructor(
    private readonly embedding: EmbeddingService,
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
    private readonly redaction: RedactionService,
  ) {}

  /**
   * `scope`: a location-bound caller's locations. They filter the store's query; naming a
   * location outside them is a 403. `undefined` searches unscoped.
   */
  async search(
    request: SearchRequestDto,
    scope?: LocationScope,
    callerSignal?: AbortSignal,
  ): Promise<SearchResponseDto> {
    const locations = scopedLocations(scope, request.location_uid);
    const share = scope ? this.shares.take(scope.join(',')) : () => undefined;
    if (!share) {
      throw new SearchBusyError(); // this tenant holds its share already
    }
    const started = performance.now();
    const gated = await this.gate.acquire(SEARCH_MAX_WAIT_MS);
    if (!gated) {
      share();
      throw new SearchBusyError();
    }
    const release = () => {
      gated();
      share();
    };
    const left = SEARCH_TIMEOUT_MS - (performance.now() - started);
    // The slot is held until the work has stopped, not merely until the answer left.
    const outcome = await withDeadline(left, (deadline) => {
      const signal = callerSignal ? AbortSignal.any([deadline, callerSignal]) : deadline;
      return this.run(request, locations, signal).finally(release);
    });
    switch (outcome.status) {
      case 'ok':
        return outcome.value;
      case 'timeout':
        throw new SearchTimeoutError();
      case 'error':
        throw outcome.error;
    }
  }

  private async run(
    request: SearchRequestDto,
    locations: string[] | undefined,
    signal: AbortSignal,
  ): Promise<SearchResponseDto> {
    // A contact the CRM places outside a bound key's locations gets the same answer as an
    // unknown one (the filter decides, no 403 telling the key it exists elsewhere), so no
    // live lookup is needed here: the store's location filter is the tenant boundary.
    const embedding = await this.embedding.embedQuery(request.query, signal);
    const filter: VectorFilter = {
      ...(request.contact_uid ? { contact_uid: request.contact_uid } : {}),
      ...(locations ? { location_uids: locations } : {}),
    };
    const hits = await this.store.search('conversations', {
      embedding,
      topK: request.top_k,
      filter,
      signal,
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
        channel: outgoingLabel(h.payload.channel), // stored before ingest held it to a word
        occurred_at: h.payload.occurred_at,
      })),
    };
  }
}
