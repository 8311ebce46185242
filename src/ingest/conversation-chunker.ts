import { type ConversationMessageDto } from './ingest.dto';

export interface ConversationWindow {
  contact_uid: string;
  conversation_uid: string;
  location_uid: string | null;
  channel: string;
  occurred_at: string;
  content: string;
}

export interface WindowOptions {
  /** Turns per window. */
  size: number;
  /** Turns shared by consecutive windows, so a fact near a boundary appears whole in one. */
  overlap: number;
}

export const DEFAULT_WINDOW: WindowOptions = { size: 6, overlap: 2 };

/**
 * Splits conversations into windows of consecutive turns with overlap. Deterministic for a
 * given set of messages (sorted by time, then input order), so a re-run yields the same
 * windows and therefore the same content-hash ids.
 */
export function chunkConversations(
  messages: ConversationMessageDto[],
  options: WindowOptions = DEFAULT_WINDOW,
): ConversationWindow[] {
  const byConversation = new Map<string, Array<{ m: ConversationMessageDto; order: number }>>();
  messages.forEach((m, order) => {
    const key = `${m.contact_uid}\u001f${m.conversation_uid}`;
    const list = byConversation.get(key) ?? [];
    list.push({ m, order });
    byConversation.set(key, list);
  });

  const stride = Math.max(1, options.size - options.overlap);
  const windows: ConversationWindow[] = [];
  for (const list of byConversation.values()) {
    const turns = list
      .sort(
        (a, b) => Date.parse(a.m.occurred_at) - Date.parse(b.m.occurred_at) || a.order - b.order,
      )
      .map((x) => x.m);
    for (let start = 0; ; start += stride) {
      const slice = turns.slice(start, start + options.size);
      const last = slice[slice.length - 1];
      windows.push({
        contact_uid: last.contact_uid,
        conversation_uid: last.conversation_uid,
        location_uid: last.location_uid ?? null,
        channel: last.channel,
        occurred_at: new Date(last.occurred_at).toISOString(),
        content: slice.map((t) => `${t.sender}: ${t.text.trim()}`).join('\n'),
      });
      if (start + options.size >= turns.length) {
        break;
      }
    }
  }
  return windows;
}
