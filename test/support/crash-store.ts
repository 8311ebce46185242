import { Database } from '@app/database';

import { chunkConversations } from '../../src/conversations/conversation-windows';
import { type Said } from './crash-probes';
import { type Residue, scanDatabase } from './residue-scan';

/**
 * The crash-recovery suite's view of the store, read while no server runs (PGlite allows one
 * process per data dir): where each word's message is, and whether the windows, their ledger
 * and the work lists agree with the messages.
 */
export interface StoreState {
  /** Each word's message rows, as `contact_uid` (a word stored twice shows twice). */
  rows: Map<string, string[]>;
  /** Windows (contact, conversation, text) no stored message derives, and derived ones missing. */
  strayWindows: string[];
  missingWindows: string[];
  /** Windows stored twice. */
  duplicateWindows: string[];
  /** Window ids in the ledger but not stored, or stored but not in the ledger. */
  ledgerMismatch: string[];
  /** Conversations listed for a rebuild (a crash's unfinished retention or forget). */
  listedRebuilds: number;
  /** Whole-contact or location forgets whose purge has not finished. */
  pendingForgets: number;
  /** Where the needles given were found (empty: clean). */
  residue: Residue[];
}

export async function readStore(
  env: Record<string, string>,
  dimension: number,
  words: readonly string[],
  needles: readonly string[],
): Promise<StoreState> {
  const db = new Database({
    dataDir: env.DATA_DIR ?? 'memory://',
    databaseUrl: env.DATABASE_URL,
    // The test reads every tenant's rows, as the service's own jobs do.
    rowSecurity: false,
  });
  await db.open(dimension);
  try {
    const messages = await db.query<{
      conversation_uid: string;
      contact_uid: string;
      location_uid: string | null;
      channel: string;
      occurred_at: Date | string;
      sender: string;
      text: string;
    }>(
      `SELECT conversation_uid, contact_uid, location_uid, channel, occurred_at, sender, text
       FROM conversation_messages`,
    );
    const rows = new Map<string, string[]>(words.map((w) => [w, []]));
    for (const m of messages) {
      for (const word of words.filter((w) => m.text.includes(w))) {
        rows.get(word)?.push(m.contact_uid);
      }
    }
    // Windows are compared by what they hold: a merge moves a window to the survivor with
    // its id (a content hash of the old contact), which the next rebuild of it replaces.
    const key = (w: { contact_uid: string; conversation_uid: string; content: string }) =>
      `${w.contact_uid}\u001f${w.conversation_uid}\u001f${w.content}`;
    const expected = chunkConversations(
      messages.map((m) => ({ ...m, occurred_at: new Date(m.occurred_at).toISOString() })),
    ).map(key);
    const windows = await db.query<{
      id: string;
      contact_uid: string;
      conversation_uid: string;
      content: string;
    }>('SELECT id, contact_uid, conversation_uid, content FROM podium_conversations');
    const stored = windows.map(key);
    const ids = new Set(windows.map((w) => w.id));
    const ledger = (
      await db.query<{ id: string }>('SELECT window_id::text AS id FROM conversation_windows')
    ).map((r) => r.id);
    const count = async (sql: string) => (await db.query<{ n: number }>(sql))[0].n;
    return {
      rows,
      strayWindows: stored.filter((w) => !expected.includes(w)),
      missingWindows: expected.filter((w) => !stored.includes(w)),
      duplicateWindows: stored.filter((w, i) => stored.indexOf(w) !== i),
      ledgerMismatch: [
        ...ledger.filter((id) => !ids.has(id)),
        ...[...ids].filter((id) => !ledger.includes(id)),
      ],
      listedRebuilds: await count('SELECT count(*)::int AS n FROM history_rebuilds'),
      pendingForgets: await count(
        'SELECT count(*)::int AS n FROM history_tombstones WHERE purged_at IS NULL',
      ),
      residue: needles.length ? await scanDatabase(db, needles) : [],
    };
  } finally {
    await db.close();
  }
}

/** Where the words of `said` are stored, contact by contact (for one `toEqual`). */
export const placesOf = (state: StoreState, said: readonly Said[]) =>
  Object.fromEntries(said.map((s) => [s.word, state.rows.get(s.word) ?? []]));
