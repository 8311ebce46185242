import { type CoalescedQuery } from '@app/coalescer';
import {
  type AttributesOf,
  type DeadlineResult,
  inSpan,
  inSpanSync,
  withDeadline,
} from '@app/common';
import { type ContactLookup } from '@app/podium';
import { type Attributes } from '@opentelemetry/api';

import { type ContextBundle } from './context.dto';

/*
 * The span attributes of the /context stages (ContextService wraps each stage in a span;
 * these say what it found). Counts, scores, flags and outcomes only: never the transcript,
 * the query, an excerpt or a live field, which may all hold customer PII.
 */

/** {@link withDeadline} inside the stage's span, which then gets `attributes(result)`. */
export function stageWithDeadline<T>(
  name: string,
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
  attributes: AttributesOf<DeadlineResult<T>>,
): Promise<DeadlineResult<T>> {
  return inSpan(name, () => withDeadline(ms, work), attributes);
}

/** A synchronous stage inside its span. */
export const stage = inSpanSync;

/** `ok`, `timeout` or `error`, and the error's stable code when there is one. */
function outcome(stage: string, result: DeadlineResult<unknown>): Attributes {
  const code =
    result.status === 'error' ? (result.error as { code?: unknown } | null)?.code : undefined;
  return {
    [`${stage}.outcome`]: result.status,
    ...(typeof code === 'string' ? { 'error.type': code } : {}),
  };
}

export function coalesceAttributes(result: DeadlineResult<CoalescedQuery>): Attributes {
  return {
    ...outcome('coalesce', result),
    ...(result.status === 'ok'
      ? {
          'coalesce.tail_words': result.value.tail ? result.value.tail.split(' ').length : 0,
          'coalesce.degraded': result.value.degraded,
        }
      : {}),
  };
}

export function liveAttributes(result: DeadlineResult<ContactLookup>): Attributes {
  return {
    ...outcome('live', result),
    ...(result.status === 'ok' ? { 'live.found': result.value.status === 'found' } : {}),
  };
}

export function rerankAttributes(
  result: DeadlineResult<number[]>,
  candidates: number,
  reranker: string,
): Attributes {
  const scores = result.status === 'ok' ? result.value.filter(Number.isFinite) : [];
  return {
    ...outcome('rerank', result),
    'rerank.provider': reranker,
    'rerank.candidates': candidates,
    ...(scores.length > 0
      ? { 'rerank.top_score': Math.max(...scores), 'rerank.min_score': Math.min(...scores) }
      : {}),
  };
}

/** Redactions per entity type (`redaction.EMAIL: 2`): what was found, never what it was. */
export function redactAttributes(result: { counts: Record<string, number> }): Attributes {
  const counts = Object.entries(result.counts);
  return {
    'redaction.total': counts.reduce((sum, [, n]) => sum + n, 0),
    ...Object.fromEntries(counts.map(([type, n]) => [`redaction.${type}`, n])),
  };
}

/** Evidence chosen, redacted and fitted to the budget: counts only. */
export function evidenceAttributes(result: {
  excerpts: ReadonlyArray<{ truncated?: boolean }>;
  token_count: number;
  redactions: Record<string, number>;
}): Attributes {
  return {
    'evidence.excerpts': result.excerpts.length,
    'budget.token_count': result.token_count,
    'budget.truncated': result.excerpts.some((e) => e.truncated === true),
    ...redactAttributes({ counts: result.redactions }),
  };
}

/** The whole build: the flags of `meta`, its per-stage timings, and the excerpts' scores. */
export function bundleAttributes(bundle: ContextBundle): Attributes {
  const { meta } = bundle;
  const scores = bundle.historical_excerpts.map((e) => e.rerank_score);
  return {
    'context.partial': meta.partial,
    'context.shed': bundle.contact.error === 'overloaded',
    'context.excerpts': bundle.historical_excerpts.length,
    'context.token_count': bundle.token_count,
    'context.timeout_ms': meta.timeout_ms,
    'context.elapsed_ms': meta.elapsed_ms,
    'context.had_vector_hits': meta.had_vector_hits,
    'context.had_live_lookup': meta.had_live_lookup,
    'context.reranked': meta.reranked,
    'context.reranker': meta.reranker,
    'context.dropped_excerpts': meta.dropped_excerpts,
    ...(scores.length > 0 ? { 'context.top_score': Math.max(...scores) } : {}),
    ...Object.fromEntries(
      Object.entries(meta.stages).map(([stage, ms]) => [`context.stage.${stage}`, ms]),
    ),
  };
}
