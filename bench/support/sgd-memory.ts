import { type SgdConversation, type SgdSlotFact } from './sgd';
import { buildSlotQuestions } from './sgd-questions';

/** A turn of the memory set: `conversation_id#turn_idx`. */
export type TurnKey = string;

/** A question over one contact's long history and the turns its answer needs. */
export interface MemoryQuestion {
  kind: 'single' | 'multi' | 'latest';
  contact_uid: string;
  question: string;
  /** Each item is one piece of evidence: held when any of its turns is in the bundle. */
  evidence: TurnKey[][];
  /** `latest` only: the piece holding the newer value. */
  latest?: number;
}

export interface MemorySet {
  conversations: SgdConversation[];
  /** Contact and session start (ms) of each conversation. */
  placement: Map<string, { contact: string; start: number }>;
  questions: MemoryQuestion[];
}

const DAY = 86_400_000;
const key = (conversation: string, turn: number): TurnKey => `${conversation}#${turn}`;

/**
 * A long-memory set from SGD: `contacts` customers with `sessions` dialogues each, spread over
 * the whole file (SGD is sorted by service, so each customer gets a mix of services), three
 * days apart. Three kinds of question, each with the turns its answer needs:
 * - `single`: one slot value, asked with a nearby value as a hint (bench:quality's SGD set);
 * - `multi`: two such questions of one customer about two different sessions, in one sentence;
 * - `latest`: a value of the same service and slot that the customer changed between exactly
 *   two sessions ("what was the latest …?"); both sessions are evidence (the model needs
 *   both and their dates to say which is current), and `latest` marks the newer.
 * Deterministic; PII values are never asked (a redacted value cannot be read back).
 */
export function buildMemorySet(
  all: SgdConversation[],
  facts: SgdSlotFact[],
  options: { contacts: number; sessions: number; perKind: number },
  isPii: (value: string) => boolean,
): MemorySet {
  const total = options.contacts * options.sessions;
  const stride = Math.max(1, Math.floor(all.length / total));
  const placement = new Map<string, { contact: string; start: number }>();
  const conversations: SgdConversation[] = [];
  for (let s = 0; s < options.sessions; s++) {
    for (let c = 0; c < options.contacts; c++) {
      const conversation = all[(s * options.contacts + c) * stride];
      if (!conversation) {
        continue;
      }
      conversations.push(conversation);
      placement.set(conversation.conversation_id, {
        contact: `mem-${String(c).padStart(3, '0')}`,
        start: Date.UTC(2024, 0, 1) + s * 3 * DAY + c * 60_000,
      });
    }
  }
  const contactOf = (id: string) => placement.get(id)!.contact;
  const known = new Set(placement.keys());

  const singles = buildSlotQuestions(facts, known, options.perKind * 3, isPii).map(
    (q): MemoryQuestion => ({
      kind: 'single',
      contact_uid: contactOf(q.conversation_id),
      question: q.question,
      evidence: [[key(q.conversation_id, q.turn_idx)]],
    }),
  );
  const questions = spread(singles, options.perKind);

  // Pairs: a question with the next one of the same contact about another session.
  const multi: MemoryQuestion[] = [];
  singles.forEach((a, i) => {
    const b = singles
      .slice(i + 1)
      .find(
        (o) =>
          o.contact_uid === a.contact_uid &&
          o.evidence[0][0].split('#')[0] !== a.evidence[0][0].split('#')[0],
      );
    if (b) {
      multi.push({
        kind: 'multi',
        contact_uid: a.contact_uid,
        question: `${a.question.replace(/\?$/, '')}, and ${b.question}`,
        evidence: [a.evidence[0], b.evidence[0]],
      });
    }
  });
  questions.push(...spread(multi, options.perKind));

  // Changed values: one service and slot said in exactly two sessions of a contact.
  const groups = new Map<string, SgdSlotFact[]>();
  for (const f of facts) {
    if (known.has(f.conversation_id) && !isPii(f.value)) {
      const g = `${contactOf(f.conversation_id)}|${f.service}|${f.slot}`;
      groups.set(g, [...(groups.get(g) ?? []), f]);
    }
  }
  const latest: MemoryQuestion[] = [];
  for (const [g, list] of groups) {
    const sessions = [...new Set(list.map((f) => f.conversation_id))];
    const values = sessions.map(
      (s) => new Set(list.filter((f) => f.conversation_id === s).map((f) => f.value)),
    );
    if (sessions.length !== 2 || values.some((v) => v.size !== 1)) {
      continue;
    }
    const [v0] = values[0];
    const [v1] = values[1];
    if (v0.toLowerCase() === v1.toLowerCase()) {
      continue;
    }
    const order = sessions.sort((a, b) => placement.get(a)!.start - placement.get(b)!.start);
    const fact = list[0];
    latest.push({
      kind: 'latest',
      contact_uid: g.split('|')[0],
      question: `what was the latest ${fact.slot_description.toLowerCase()}?`,
      evidence: order.map((s) =>
        list.filter((f) => f.conversation_id === s).map((f) => key(s, f.turn_idx)),
      ),
      latest: 1,
    });
  }
  questions.push(...spread(latest, options.perKind));
  return { conversations, placement, questions };
}

/** Every n-th item, so a capped sample covers the whole list (all contacts, all services). */
function spread<T>(items: T[], limit: number): T[] {
  const step = Math.max(1, items.length / limit);
  const out: T[] = [];
  for (let i = 0; i < items.length && out.length < limit; i += step) {
    out.push(items[Math.floor(i)]);
  }
  return out;
}

const CHANNELS = ['sms', 'call', 'webchat'] as const;

/** The set in the conversation-ingest format: its contacts, session days, 30 s per turn. */
export function memoryMessages(set: MemorySet) {
  return set.conversations.flatMap((c, i) => {
    const { contact, start } = set.placement.get(c.conversation_id)!;
    return c.turns.map((t) => ({
      conversation_uid: `sgd-${c.conversation_id}`,
      contact_uid: contact,
      location_uid: 'loc-memory',
      channel: CHANNELS[i % CHANNELS.length],
      occurred_at: new Date(start + t.turn_idx * 30_000).toISOString(),
      sender: t.role,
      text: t.text,
    }));
  });
}
