/**
 * The shapes the inspector reads: the TypeScript client's wire types (type-only imports, so
 * no server or client code lands in the bundle).
 */
import {
  type ContextBundle,
  type ContextExplain,
  type ExplainCandidate,
} from '../../../libs/client/src/types';

export type Candidate = ExplainCandidate;
export type Stage = ContextExplain['stages'][number];

/** The bundle with the meta fields the page shows (the client types keep meta open). */
export type Bundle = ContextBundle & {
  meta: ContextBundle['meta'] & {
    reranked: boolean;
    reranker: string;
    redactions: Record<string, number>;
    dropped_excerpts: number;
  };
};

export interface ContactSummary {
  contact_uid: string;
  name: string | null;
  location_uid: string | null;
}
