import { Database } from '@app/database';
import { VECTOR_STORE, type VectorRecord, type VectorStore } from '@app/vector';
import { type INestApplicationContext } from '@nestjs/common';

import { toStoredMessage } from '../../src/conversations/conversation-memory.service';
import { chunkConversations } from '../../src/conversations/conversation-windows';
import { HistoryRetention } from '../../src/conversations/history-retention';
import { ConversationMessagesRepository } from '../../src/relational/conversation-messages.repository';
import { benchContext } from './app-context';
import { bagOfWordsEmbedding, type ScaleCorpus } from './scale-corpus';

/** Conversations per bulk round (~9,000 windows): one message insert, few window inserts. */
const GROW_CONVERSATIONS = 2000;
const INSERT_ROWS = 3000;

export interface GrowReport {
  conversations: number;
  windows: number;
  seconds: number;
  windows_per_s: number;
  hnsw_rebuild_s: number;
  /** The rebuild's rate over the whole store: the reindex rate. */
  hnsw_windows_per_s: number | null;
  contact_indexes: number;
  contact_indexes_s: number;
}

/**
 * Grows the store in bulk with the service's own parts (message ids, windowing, the
 * repository's message and ledger inserts, the store's window insert with its postings and
 * statistics triggers), in large batches and with the bench's embedder called in-process.
 * For time, the HNSW index is dropped while growing and rebuilt after, as a bulk load would
 * do. The ingest rate a client sees is measured separately, over HTTP, with every index live.
 */
export class ScaleGrower {
  private ctx?: INestApplicationContext;
  conversations = 0;

  constructor(
    private readonly corpus: ScaleCorpus,
    private readonly env: Record<string, string>,
    /** PGlite: one process at a time holds the data dir, so the grower lets go of it. */
    private readonly exclusive = false,
  ) {}

  async open(): Promise<void> {
    this.ctx = await benchContext(this.env);
    const [row] = await this.db.query<{ n: number }>(
      `SELECT count(DISTINCT conversation_uid)::int AS n FROM conversation_messages`,
    );
    this.conversations = row.n;
  }

  /** Lets the service open the store (PGlite); a server-backed store stays open. */
  async release(): Promise<void> {
    if (this.exclusive) {
      await this.ctx?.close();
      this.ctx = undefined;
    }
  }

  async reacquire(): Promise<void> {
    if (!this.ctx) {
      await this.open();
    }
  }

  get db(): Database {
    return (this.ctx as INestApplicationContext).get(Database);
  }

  async windows(): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM podium_conversations`,
    );
    return row.n;
  }

  /** Ingests conversations until the store holds `target` windows. */
  async growTo(
    target: number,
    dimension: number,
    log: (line: string) => void,
  ): Promise<GrowReport> {
    const ctx = this.ctx as INestApplicationContext;
    const store = ctx.get<VectorStore>(VECTOR_STORE);
    const t0 = performance.now();
    const start = { conversations: this.conversations, windows: await this.windows() };
    let windows = start.windows;
    // A store already at the size keeps its indexes (nothing to load in bulk).
    const hnsw = windows < target ? await this.dropHnsw() : [];
    while (windows < target) {
      await this.append(this.stepToward(target, windows), dimension, log);
      windows = await this.windows();
      const rate = (windows - start.windows) / ((performance.now() - t0) / 1000);
      log(
        `grow: ${windows} windows, ${this.conversations} conversations, ${rate.toFixed(0)} windows/s`,
      );
    }
    const growSeconds = (performance.now() - t0) / 1000;
    const r0 = performance.now();
    if (hnsw.length || windows > start.windows) {
      await this.restoreHnsw(hnsw);
    }
    const hnswSeconds = (performance.now() - r0) / 1000;
    if (windows > start.windows) {
      await this.db.execute(`VACUUM ANALYZE`);
    }
    // What the service's maintenance job does after an import: own indexes for large contacts.
    const i0 = performance.now();
    let contactIndexes = 0;
    for (;;) {
      const { created } = (await store.maintain?.()) as { created: string[] };
      contactIndexes += created.length;
      if (created.length === 0) {
        break;
      }
    }
    const contactIndexSeconds = (performance.now() - i0) / 1000;
    return {
      conversations: this.conversations - start.conversations,
      windows: windows - start.windows,
      seconds: Number(growSeconds.toFixed(1)),
      windows_per_s: Math.round((windows - start.windows) / growSeconds),
      hnsw_rebuild_s: Number(hnswSeconds.toFixed(1)),
      hnsw_windows_per_s: hnsw.length ? Math.round(windows / hnswSeconds) : null,
      contact_indexes: contactIndexes,
      contact_indexes_s: Number(contactIndexSeconds.toFixed(1)),
    };
  }

  /** Conversations to add next toward `target` windows: at most one bulk round. */
  stepToward(target: number, windows: number, most = GROW_CONVERSATIONS): number {
    const perConversation =
      windows > 0 && this.conversations > 0 ? windows / this.conversations : 4.5;
    return Math.max(1, Math.min(Math.ceil((target - windows) / perConversation), most));
  }

  /**
   * Appends the next `count` conversations of the corpus through the service's write path:
   * message ids, the repository's message insert, windowing, the window ledger, then the
   * store's window insert (postings, statistics triggers, whatever indexes exist) in
   * statements of INSERT_ROWS windows. Vectors come from the bench's embedder, in-process.
   */
  async append(
    count: number,
    dimension: number,
    log: (line: string) => void = () => undefined,
  ): Promise<{ messages: number; windows: number }> {
    const ctx = this.ctx as INestApplicationContext;
    const repository = ctx.get(ConversationMessagesRepository);
    const store = ctx.get<VectorStore>(VECTOR_STORE);
    // Claimed before the first await: concurrent appends (bulk-load writers) take disjoint ranges.
    const from = this.conversations;
    this.conversations += count;
    const messages = this.corpus.conversations(from, from + count).map(toStoredMessage);
    const m0 = performance.now();
    await repository.save(messages);
    const m1 = performance.now();
    const built = chunkConversations(messages);
    await repository.recordWindows(built);
    const m2 = performance.now();
    for (let i = 0; i < built.length; i += INSERT_ROWS) {
      const records: Array<VectorRecord<'conversations'>> = built
        .slice(i, i + INSERT_ROWS)
        .map(({ id, content, ...payload }) => ({
          id,
          content,
          embedding: bagOfWordsEmbedding(content, dimension),
          payload,
        }));
      await store.upsert('conversations', records);
    }
    if (process.env.BENCH_SCALE_TRACE) {
      const m3 = performance.now();
      log(
        `messages ${(m1 - m0).toFixed(0)} ms, ledger ${(m2 - m1).toFixed(0)} ms, windows ${(m3 - m2).toFixed(0)} ms`,
      );
    }
    return { messages: messages.length, windows: built.length };
  }

  /** One retention sweep (the hourly job's own code) that purges what is older than `cutoff`. */
  async sweep(cutoff: Date): Promise<unknown> {
    await this.release();
    const ctx = await benchContext({ ...this.env, HISTORY_RETENTION_DAYS: '1' });
    try {
      return await ctx.get(HistoryRetention).sweep(new Date(cutoff.getTime() + 86_400_000));
    } finally {
      await ctx.close();
      await this.reacquire();
    }
  }

  /** What an earlier run that died mid-growth left dropped (the schema's definitions). */
  private async missingIndexes(restoring: string[]): Promise<string[]> {
    const expected: Record<string, string> = {
      podium_conversations_embedding_hnsw: `CREATE INDEX podium_conversations_embedding_hnsw
        ON podium_conversations USING hnsw (embedding vector_cosine_ops)`,
      podium_conversations_terms_term_impact: `CREATE INDEX podium_conversations_terms_term_impact
        ON podium_conversations_terms (term, impact DESC) INCLUDE (doc_id, tf, doc_len)`,
      podium_conversations_terms_contact_term_impact: `CREATE INDEX
        podium_conversations_terms_contact_term_impact ON podium_conversations_terms
        (contact_uid, term, impact DESC) INCLUDE (doc_id, tf, doc_len)`,
    };
    const present = await this.db.query<{ name: string }>(
      `SELECT indexname AS name FROM pg_indexes WHERE indexname = ANY($1::text[])`,
      [Object.keys(expected)],
    );
    const have = new Set([...present.map((r) => r.name), ...restoring]);
    return Object.entries(expected)
      .filter(([name]) => !have.has(name))
      .map(([, definition]) => definition);
  }

  async close(): Promise<void> {
    await this.ctx?.close();
  }

  /**
   * The indexes a bulk load builds once at the end rather than entry by entry: HNSW, and the
   * best-first posting indexes (tens of millions of entries at 1M windows).
   */
  private async dropHnsw(): Promise<Array<{ name: string; definition: string }>> {
    const rows = await this.db.query<{ name: string; definition: string }>(
      `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
       WHERE (tablename = 'podium_conversations' AND indexdef ILIKE '%USING hnsw%')
          OR (tablename = 'podium_conversations_terms' AND indexname LIKE '%_impact')`,
    );
    for (const row of rows) {
      await this.db.execute(`DROP INDEX ${row.name}`);
    }
    return rows;
  }

  /** Rebuilds what was dropped (or the schema's index, if an earlier run died mid-growth). */
  private async restoreHnsw(indexes: Array<{ name: string; definition: string }>): Promise<void> {
    const definitions = [
      ...indexes.map((i) => i.definition),
      ...(await this.missingIndexes(indexes.map((i) => i.name))),
    ];
    for (const definition of definitions) {
      // An index build at 1M rows outlasts the pool's statement timeout: lift it for this one.
      await this.db.transaction((tx) => tx.exec(`SET LOCAL statement_timeout = 0; ${definition}`));
    }
  }
}
