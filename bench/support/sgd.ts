import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The shared evaluation data lives beside the repo (`../shared/data`). */
export const SHARED_DATA =
  process.env.SHARED_DATA_DIR ?? join(__dirname, '..', '..', '..', 'shared', 'data');

export interface SgdConversation {
  conversation_id: string;
  fake_contact_id: string;
  turns: Array<{ turn_idx: number; role: string; text: string }>;
}

export interface SgdSlotFact {
  conversation_id: string;
  turn_idx: number;
  slot: string;
  slot_description: string;
  value: string;
  service: string;
  unique_to_conversation: boolean;
  /** In how many of the set's conversations the value is said. */
  conversations_mentioning_value: number;
}

const CHANNELS = ['sms', 'call', 'webchat'] as const;

export function loadSgdConversations(limit?: number): SgdConversation[] {
  const lines = readFileSync(join(SHARED_DATA, 'sgd', 'conversations.jsonl'), 'utf8')
    .trim()
    .split('\n');
  return lines.slice(0, limit).map((l) => JSON.parse(l) as SgdConversation);
}

export function loadSgdSlotFacts(): SgdSlotFact[] {
  const lines = readFileSync(join(SHARED_DATA, 'sgd', 'slot_facts.jsonl'), 'utf8')
    .trim()
    .split('\n');
  return lines.map((l) => JSON.parse(l) as SgdSlotFact);
}

/**
 * Adapts SGD dialogues to the conversation-ingest format as `../shared/data/README.md` says:
 * a contact per `groupSize` conversations (1 = SGD's own fake contact), a channel by turns,
 * and deterministic `occurred_at` spacing (a day between conversations, 30 s between turns),
 * the last conversation on 2025-01-01: every date is in the past, which ingest requires
 * (`occurred_at_in_future`), and only the spacing matters to ranking (recency is relative).
 */
export function sgdToMessages(conversations: SgdConversation[], groupSize = 1) {
  return conversations.flatMap((c, i) => {
    const contact =
      groupSize === 1
        ? c.fake_contact_id
        : `contact-g${String(Math.floor(i / groupSize)).padStart(4, '0')}`;
    const start = Date.UTC(2025, 0, 1) - (conversations.length - 1 - i) * 86_400_000;
    return c.turns.map((t) => ({
      conversation_uid: `sgd-${c.conversation_id}`,
      contact_uid: contact,
      location_uid: `loc-${i % 4}`,
      channel: CHANNELS[i % CHANNELS.length],
      occurred_at: new Date(start + t.turn_idx * 30_000).toISOString(),
      sender: t.role,
      text: t.text,
    }));
  });
}

/** One question per SGD dialogue: the customer's first turn that asks something. */
export function sgdCustomerQuestions(limit: number): string[] {
  const asked = loadSgdConversations()
    .map((c) => c.turns.find((t) => t.role === 'customer' && t.text.trim().endsWith('?'))?.text)
    .filter((text): text is string => text !== undefined);
  // Dialogues are grouped by service in the file: a stride spreads the sample across them.
  const stride = Math.max(1, Math.floor(asked.length / limit));
  return asked.filter((_, i) => i % stride === 0).slice(0, limit);
}
