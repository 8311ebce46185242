import { type ContextBundle, type ContextFetchRequestDto } from '../../context/context.dto';
import { type CallIdentity } from '../../context/speculative/call-sessions';
import { type PreparedEvidence } from '../../context/speculative/prepared-evidence';
import { type CallStreamEventDto } from './call-stream.protocol';

/** The last speculative evidence pushed to the client, by its bundle id. */
export interface Pushed {
  id: number;
  prepared: PreparedEvidence;
}

/** A stream event as the `/context` request it stands for (`transcript`: what is built). */
export function streamRequest(
  identity: CallIdentity,
  event: CallStreamEventDto,
  isFinal: boolean,
  transcript = event.transcript,
): ContextFetchRequestDto {
  return {
    transcript,
    timeout_ms: event.timeout_ms,
    pool_k: event.pool_k,
    final_k: event.final_k,
    max_tokens: event.max_tokens,
    call_id: identity.callId,
    contact_uid: identity.contactUid,
    location_uid: identity.locationUid,
    is_final: isFinal,
  };
}

/**
 * A built final's answer: `confirmed` with the pushed evidence's id when the bundle's evidence
 * is that one (the client holds the excerpts: the rest, live fields re-checked and meta, is
 * sent), else the whole `bundle` under `nextId()`.
 */
export function finalAnswer(
  bundle: ContextBundle,
  pushed: Pushed | undefined,
  seq: number | undefined,
  nextId: () => number,
): { type: 'confirmed' | 'bundle' } & Record<string, unknown> {
  if (pushed && sameEvidence(pushed.prepared, bundle)) {
    const { contact, call_memory, meta } = bundle;
    return { type: 'confirmed', seq, bundle_id: pushed.id, contact, call_memory, meta };
  }
  return { type: 'bundle', seq, bundle_id: nextId(), bundle };
}

/** The final's evidence is what was pushed: the same object, or equal excerpts and count. */
function sameEvidence(prepared: PreparedEvidence, bundle: ContextBundle): boolean {
  const pushed = prepared.assembled;
  return (
    pushed.excerpts === bundle.historical_excerpts ||
    (pushed.token_count === bundle.token_count &&
      JSON.stringify(pushed.excerpts) === JSON.stringify(bundle.historical_excerpts))
  );
}
