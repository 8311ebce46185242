import { type SgdSlotFact } from './sgd';

export interface SlotQuestion {
  conversation_id: string;
  turn_idx: number;
  question: string;
}

/**
 * Questions with known answers from SGD slot facts whose value is unique to one conversation:
 * "what was the <slot description>", disambiguated by one other value stated in the same
 * conversation (as a customer would: "the restaurant I booked in Corte Madera"). The value
 * itself never appears in the question. Deterministic: every `step`-th eligible fact.
 */
export function buildSlotQuestions(
  facts: SgdSlotFact[],
  known: Set<string>,
  limit: number,
): SlotQuestion[] {
  const byConversation = new Map<string, SgdSlotFact[]>();
  for (const f of facts) {
    if (known.has(f.conversation_id)) {
      byConversation.set(f.conversation_id, [...(byConversation.get(f.conversation_id) ?? []), f]);
    }
  }
  const eligible = facts.filter((f) => f.unique_to_conversation && known.has(f.conversation_id));
  const step = Math.max(1, Math.floor(eligible.length / limit));
  const out: SlotQuestion[] = [];
  for (let i = 0; i < eligible.length && out.length < limit; i += step) {
    const fact = eligible[i];
    const hint = (byConversation.get(fact.conversation_id) ?? [])
      .filter(
        (o) => o.slot !== fact.slot && o.value !== fact.value && !fact.value.includes(o.value),
      )
      .sort(
        (a, b) => Math.abs(a.turn_idx - fact.turn_idx) - Math.abs(b.turn_idx - fact.turn_idx),
      )[0];
    const about = hint ? ` about ${hint.value}` : '';
    out.push({
      conversation_id: fact.conversation_id,
      turn_idx: fact.turn_idx,
      question: `what was the ${fact.slot_description.toLowerCase()}${about}?`,
    });
  }
  return out;
}
