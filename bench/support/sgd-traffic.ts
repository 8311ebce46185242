import { Redactor } from '@app/redaction';

import { loadSgdSlotFacts, type SgdConversation } from './sgd';
import { buildSlotQuestions, type SlotQuestion } from './sgd-questions';

/** Conversations per contact in the SGD stores the benches build (bench/.cache/sgd-g8-*). */
export const SGD_GROUP = 8;

/** The contact of each SGD conversation, as {@link SGD_GROUP} stores them. */
export function sgdContacts(conversations: SgdConversation[]): Map<string, string> {
  return new Map(
    conversations.map((c, i) => [
      c.conversation_id,
      `contact-g${String(Math.floor(i / SGD_GROUP)).padStart(4, '0')}`,
    ]),
  );
}

/** Slot-fact questions about these conversations, none asking for a value redaction hides. */
export function sgdQuestions(conversations: SgdConversation[], limit: number): SlotQuestion[] {
  const redactor = new Redactor({});
  return buildSlotQuestions(
    loadSgdSlotFacts(),
    new Set(conversations.map((c) => c.conversation_id)),
    limit,
    (value) => redactor.redact(value).text !== value,
  );
}

type Turn = { q: string; contact: string };

/** The questions as load: all of them, and grouped by contact (one contact per call). */
export interface Traffic {
  turns: Turn[];
  byContact: Turn[][];
}

export function trafficOf(turns: Turn[]): Traffic {
  const byContact = new Map<string, Turn[]>();
  turns.forEach((t) => byContact.set(t.contact, [...(byContact.get(t.contact) ?? []), t]));
  return { turns, byContact: [...byContact.values()] };
}

/**
 * Two shapes of traffic: `calls` are live calls of one contact each, six turns long, fed turn
 * after turn, so a query carries its call's coalesced tail (longer texts: ~21 words against
 * ~13) as live voice traffic does; `chunks` sends each turn alone, without a call.
 */
export const SHAPES = ['calls', 'chunks'] as const;
export type Shape = (typeof SHAPES)[number];
const TURNS_PER_CALL = 6;

/**
 * Request `i` of a run with `concurrency` callers. Every text is distinct across shapes, tags
 * and levels: the query-embedding cache must not flatter the numbers.
 */
export function loadRequest(
  { turns, byContact }: Traffic,
  shape: Shape,
  tag: string,
  concurrency: number,
  i: number,
) {
  const transcript = (turn: Turn) => `${turn.q} (${shape} ${tag} turn ${concurrency}-${i})`;
  if (shape === 'chunks') {
    const turn = turns[i % turns.length];
    return { transcript: transcript(turn), contact_uid: turn.contact };
  }
  // Caller k runs calls back to back; call n of the run speaks about one contact.
  const caller = i % concurrency;
  const step = Math.floor(i / concurrency);
  const call = caller + concurrency * Math.floor(step / TURNS_PER_CALL);
  const own = byContact[call % byContact.length];
  const turn = own[step % own.length];
  return {
    transcript: transcript(turn),
    contact_uid: turn.contact,
    call_id: `bench-${tag}-${concurrency}-${call}`,
  };
}
