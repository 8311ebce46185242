import { type SgdSlotFact } from './sgd';

export interface SlotQuestion {
  conversation_id: string;
  turn_idx: number;
  question: string;
  /** The answer, as said in the dialogue. */
  value: string;
}

/** How far (in turns) the disambiguating value may sit from the answer: inside one window. */
const HINT_DISTANCE = 2;

/**
 * Well-posed questions with known answers from SGD slot facts: "what was the <slot
 * description> about <hint>?", where
 * - the asked value is unique to one conversation and is not PII (a redacted value could not
 *   be read back from an excerpt, so asking for it measures nothing);
 * - the hint is another non-PII value said within two turns of the answer (as a customer
 *   would: "the restaurant I booked in Corte Madera"), the rarest across conversations first,
 *   so the question singles out one conversation; facts with no such hint are skipped.
 * The value itself never appears in the question. Deterministic: every `step`-th eligible fact.
 */
export function buildSlotQuestions(
  facts: SgdSlotFact[],
  known: Set<string>,
  limit: number,
  isPii: (value: string) => boolean,
): SlotQuestion[] {
  const byConversation = new Map<string, SgdSlotFact[]>();
  for (const f of facts) {
    if (known.has(f.conversation_id) && !isPii(f.value)) {
      byConversation.set(f.conversation_id, [...(byConversation.get(f.conversation_id) ?? []), f]);
    }
  }
  const hintFor = (fact: SgdSlotFact) =>
    (byConversation.get(fact.conversation_id) ?? [])
      .filter(
        (o) =>
          o.slot !== fact.slot &&
          o.value !== fact.value &&
          !fact.value.includes(o.value) &&
          !o.value.includes(fact.value) &&
          Math.abs(o.turn_idx - fact.turn_idx) <= HINT_DISTANCE,
      )
      .sort(
        (a, b) =>
          a.conversations_mentioning_value - b.conversations_mentioning_value ||
          Math.abs(a.turn_idx - fact.turn_idx) - Math.abs(b.turn_idx - fact.turn_idx),
      )[0];
  const eligible = facts
    .filter((f) => f.unique_to_conversation && known.has(f.conversation_id) && !isPii(f.value))
    .map((fact) => ({ fact, hint: hintFor(fact) }))
    .filter((x): x is { fact: SgdSlotFact; hint: SgdSlotFact } => x.hint !== undefined);
  const step = Math.max(1, Math.floor(eligible.length / limit));
  const out: SlotQuestion[] = [];
  for (let i = 0; i < eligible.length && out.length < limit; i += step) {
    const { fact, hint } = eligible[i];
    out.push({
      conversation_id: fact.conversation_id,
      turn_idx: fact.turn_idx,
      question: `what was the ${fact.slot_description.toLowerCase()} about ${hint.value}?`,
      value: fact.value,
    });
  }
  return out;
}
