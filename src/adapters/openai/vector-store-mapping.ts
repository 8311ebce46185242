import { InvalidInputError } from '@app/common';

import { UID_PATTERN } from '../../common/api-docs';
import { type ContextBundle } from '../../context/context.dto';
import { type VectorStoreSearchPageDto } from './vector-store-search.dto';

const UID = new RegExp(UID_PATTERN);
const unsupported = () =>
  new InvalidInputError(
    'unsupported_filter',
    'filters supports only {type:"eq", key:"location_uid", value:"<uid>"}, alone or inside {type:"and", filters:[…]}.',
  );

/**
 * OpenAI's attribute filters, reduced to what tenant scoping can honour: one `location_uid`.
 * Anything else is a 400 rather than silently ignored, which would widen what the caller
 * believes it asked for.
 */
export function toLocationFilter(filters: Record<string, unknown> | undefined): string | undefined {
  if (!filters) {
    return undefined;
  }
  const leaves =
    filters.type === 'and' && Array.isArray(filters.filters) ? filters.filters : [filters];
  const locations = new Set<string>();
  for (const leaf of leaves as Array<Record<string, unknown> | null>) {
    const value = leaf?.value;
    if (
      leaf?.type !== 'eq' ||
      leaf.key !== 'location_uid' ||
      typeof value !== 'string' ||
      value.length > 128 ||
      !UID.test(value)
    ) {
      throw unsupported();
    }
    locations.add(value);
  }
  if (locations.size !== 1) {
    throw unsupported(); // two different locations ANDed match nothing: refuse, do not guess
  }
  return [...locations][0];
}

/** The bundle's excerpts as OpenAI search results (the live contact has no file to map to). */
export function toSearchPage(
  bundle: ContextBundle,
  contactUid: string,
  searchQuery: string[],
  scoreThreshold?: number,
): VectorStoreSearchPageDto {
  return {
    object: 'vector_store.search_results.page',
    search_query: searchQuery,
    data: bundle.historical_excerpts
      .filter((e) => scoreThreshold === undefined || e.rerank_score >= scoreThreshold)
      .map((e) => ({
        file_id: e.id,
        filename: `${e.channel}-${e.occurred_at}.txt`,
        score: e.rerank_score,
        attributes: {
          contact_uid: contactUid,
          channel: e.channel,
          occurred_at: e.occurred_at,
          vector_score: e.vector_score,
        },
        content: [{ type: 'text' as const, text: e.content }],
      })),
    has_more: false,
    next_page: null,
  };
}
