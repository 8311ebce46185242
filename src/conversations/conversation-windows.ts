import { contentHash, uuidFromHash } from '@app/common';

/** What windowing reads of a stored message. */
export interface WindowMessage {
  conversation_uid: string;
  contact_uid: string;
  location_uid?: string | null;
  channel: string;
  occurred_at: string;
  sender: string;
  text: string;
}

export interface ConversationWindow {
  /** A content hash: the same turns in the same place always get the same id. */
  id: string;
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
 * The id of a window. The location is part of it: windows never mix locations, and a
 * message re-ingested with a corrected location yields a new window id, so the wrongly
 * labelled window becomes stale and is removed instead of being kept as "already stored".
 */
export function windowId(
  contactUid: string,
  conversationUid: string,
  locationUid: string | null,
  content: string,
): string {
  return uuidFromHash(
    contentHash('conversation', contactUid, conversationUid, locationUid ?? '', content),
  );
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Time order, ties broken by content rather than arrival order, so the windows depend only
 * on the set of messages: any split or ordering of requests ends in the same windows.
 */
const byTurnOrder = (a: WindowMessage, b: WindowMessage) =>
  Date.parse(a.occurred_at) - Date.parse(b.occurred_at) ||
  compareText(a.sender, b.sender) ||
  compareText(a.text, b.text);

/**
 * Splits messages into windows of consecutive turns with overlap, one series per
 * (contact, location, conversation): a conversation whose messages carry two locations
 * gets two series, each labelled with its own location.
 */
export function chunkConversations(
  messages: readonly WindowMessage[],
  options: WindowOptions = DEFAULT_WINDOW,
): ConversationWindow[] {
  const series = new Map<string, WindowMessage[]>();
  for (const m of messages) {
    const key = [m.contact_uid, m.location_uid ?? '', m.conversation_uid].join('\u001f');
    const list = series.get(key) ?? [];
    list.push(m);
    series.set(key, list);
  }

  const stride = Math.max(1, options.size - options.overlap);
  const windows: ConversationWindow[] = [];
  for (const list of series.values()) {
    const turns = [...list].sort(byTurnOrder);
    for (let start = 0; ; start += stride) {
      const slice = turns.slice(start, start + options.size);
      const last = slice[slice.length - 1];
      const content = slice.map((t) => `${t.sender}: ${t.text.trim()}`).join('\n');
      const location = last.location_uid ?? null;
      windows.push({
        id: windowId(last.contact_uid, last.conversation_uid, location, content),
        contact_uid: last.contact_uid,
        conversation_uid: last.conversation_uid,
        location_uid: location,
        channel: last.channel,
        occurred_at: new Date(last.occurred_at).toISOString(),
        content,
      });
      if (start + options.size >= turns.length) {
        break;
      }
    }
  }
  return windows;
}
