import { contentHash, uuidFromHash } from '@app/common';
import { type VectorRecord, type VectorStore } from '@app/vector';

/**
 * The behaviour every VectorStore provider must share, written once and run per provider
 * (test/vector-store.e2e-spec.ts). Inputs are chosen so the expected order is unambiguous on
 * every backend: cosine orders come from small 8-d vectors with distinct angles, and lexical
 * orders from documents matching 3, 2, 1 and 0 of the query's terms (Postgres' ts_rank_cd and
 * Qdrant's BM25 agree on those). So "same inputs, same ids, same order" is asserted here as
 * concrete expected lists.
 */

export const DIMENSION = 8;

/** A unit vector mostly along `axis`, tilted toward the next axis; more tilt, lower cosine. */
export const vec = (axis: number, tilt = 0): number[] => {
  const v = Array.from({ length: DIMENSION }, (_, i) =>
    i === axis ? 1 : i === (axis + 1) % DIMENSION ? tilt : 0,
  );
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

/** A unit vector between axis 0 (weight `a`) and axis 7. */
const mix = (a: number): number[] => {
  const v = [a, 0, 0, 0, 0, 0, 0, 1];
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

export const cosine = (a: number[], b: number[]): number =>
  a.reduce((s, x, i) => s + x * b[i], 0) / (Math.hypot(...a) * Math.hypot(...b));

export const id = (...parts: string[]): string => uuidFromHash(contentHash('contract', ...parts));

const conversation = (
  key: string,
  contact: string,
  embedding: number[],
  content: string,
  location: string | null = 'loc_0',
  occurredAt = '2026-01-05T10:00:00.000Z',
): VectorRecord<'conversations'> => ({
  id: id('conv', key),
  content,
  embedding,
  payload: {
    contact_uid: contact,
    location_uid: location,
    conversation_uid: `conv_${key}`,
    channel: 'sms',
    occurred_at: occurredAt,
  },
});

/** ctc_target: 12 rows near axis 0 in cosine order t0 > t1 > …; row 11 has no location. */
export const TARGET = Array.from({ length: 12 }, (_, i) =>
  conversation(
    `t${i}`,
    'ctc_target',
    vec(0, i / 12),
    `target note number ${i}`,
    i === 11 ? null : `loc_${i % 2}`,
  ),
);
/** ctc_busy: 30 rows pointing elsewhere. */
export const BUSY = Array.from({ length: 30 }, (_, i) =>
  conversation(`b${i}`, 'ctc_busy', vec(1 + (i % 6), (i + 1) / 31), `busy filler ${i}`),
);
/** ctc_lex: L1 matches 3 terms of LEX_QUERY, L2 two, L3 one, L4 none; cosine to axis 0 falls. */
export const LEX = [
  conversation('L1', 'ctc_lex', mix(0.9), 'Refund for the broken espresso grinder'),
  conversation('L2', 'ctc_lex', mix(0.6), 'Refund for the espresso order'),
  conversation('L3', 'ctc_lex', mix(0.3), 'A refund was issued'),
  conversation('L4', 'ctc_lex', mix(0.1), 'Shipping address changed', 'loc_1'),
];
export const LEX_QUERY = 'refunds on espresso grinders';
/** An un-normalised timestamp: both stores must return it as `toISOString()` does. */
export const ODD_TIME = conversation(
  'odd',
  'ctc_time',
  vec(5, 0.5),
  'timestamp check',
  null,
  '2026-01-05T10:00:00+02:00',
);

const chunk = (
  topic: string,
  i: number,
  text: string,
  embedding: number[],
  theme: string | null,
): VectorRecord<'source_chunks'> => ({
  id: id('chunk', topic, String(i), text),
  content: text,
  embedding,
  payload: { topic_id: topic, title: `Title ${topic}`, theme_id: theme, chunk_index: i },
});

export const KB = {
  t1: [
    chunk('t1', 0, 'Holacracy roles are explicit', vec(2, 0.1), 'th1'),
    chunk('t1', 1, 'Circles hold roles', vec(2, 0.5), 'th1'),
  ],
  t1Edited: [
    chunk('t1', 0, 'Holacracy roles are explicit', vec(2, 0.1), 'th1'),
    chunk('t1', 1, 'Circles hold roles and domains', vec(2, 0.3), 'th1'),
    chunk('t1', 2, 'Tactical meetings triage tensions', vec(2, 0.7), 'th1'),
  ],
  t2: [chunk('t2', 0, 'Weekly planning rituals', vec(3), null)],
};

export const ALL_CONVERSATIONS = [...TARGET, ...BUSY, ...LEX, ODD_TIME];

const contents = (hits: Array<{ content: string }>) => hits.map((h) => h.content);

/** Defines the shared suite for one provider; `open` returns an initialised, empty store. */
export function vectorStoreContract(
  provider: string,
  open: () => Promise<{ store: VectorStore; close(): Promise<void> }>,
): void {
  describe(`VectorStore contract: ${provider}`, () => {
    let sut: VectorStore;
    let close: () => Promise<void>;

    beforeAll(async () => {
      ({ store: sut, close } = await open());
      await sut.init(DIMENSION);
    });
    afterAll(() => close());

    it('starts empty, upserts idempotently by id, and counts', async () => {
      expect(await sut.count('conversations')).toBe(0);
      const first = await sut.upsert('conversations', [...ALL_CONVERSATIONS, TARGET[0]]);
      expect(first).toEqual({ inserted: ALL_CONVERSATIONS.length, skipped: 1 });
      expect(await sut.upsert('conversations', TARGET.slice(0, 3))).toEqual({
        inserted: 0,
        skipped: 3,
      });
      expect(await sut.upsert('conversations', [])).toEqual({ inserted: 0, skipped: 0 });
      expect(await sut.count('conversations')).toBe(ALL_CONVERSATIONS.length);
      await sut.init(DIMENSION); // a second init (restart) keeps the data
      expect(await sut.count('conversations')).toBe(ALL_CONVERSATIONS.length);
    });

    it('per-contact dense search: topK hits of that contact in cosine order', async () => {
      const hits = await sut.search('conversations', {
        embedding: vec(0),
        topK: 5,
        filter: { contact_uid: 'ctc_target' },
      });
      expect(hits.map((h) => h.id)).toEqual(TARGET.slice(0, 5).map((r) => r.id));
      hits.forEach((h, i) => expect(h.score).toBeCloseTo(cosine(vec(0), TARGET[i].embedding), 5));
      expect(hits[0].similarity).toBeUndefined();
    });

    it('filters by location inside the query and applies the score threshold', async () => {
      const threshold = cosine(vec(0), vec(0, 6 / 12)) - 1e-4;
      const hits = await sut.search('conversations', {
        embedding: vec(0),
        topK: 50,
        filter: { contact_uid: 'ctc_target', location_uids: ['loc_0'] },
        scoreThreshold: threshold,
      });
      expect(contents(hits)).toEqual([0, 2, 4, 6].map((i) => `target note number ${i}`));
      const none = await sut.search('conversations', {
        embedding: vec(0),
        topK: 5,
        filter: { location_uids: [] },
      });
      expect(none).toEqual([]);
    });

    it('unfiltered search ranks across contacts', async () => {
      const hits = await sut.search('conversations', { embedding: vec(3, 0.2), topK: 3 });
      expect(hits.every((h) => h.payload.contact_uid === 'ctc_busy')).toBe(true);
      const scores = hits.map((h) => h.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    });

    it('returns the payload as stored, nulls kept and timestamps normalised', async () => {
      const [hit] = await sut.search('conversations', {
        embedding: ODD_TIME.embedding,
        topK: 1,
        filter: { contact_uid: 'ctc_time' },
      });
      expect(hit).toMatchObject({ id: ODD_TIME.id, content: 'timestamp check' });
      expect(hit.payload).toEqual({ ...ODD_TIME.payload, occurred_at: '2026-01-05T08:00:00.000Z' });
    });

    it('lexical search: stemmed terms, OR semantics, more matched terms rank higher', async () => {
      const hits = await sut.lexicalSearch('conversations', {
        text: LEX_QUERY,
        topK: 10,
        filter: { contact_uid: 'ctc_lex' },
      });
      expect(hits.map((h) => h.id)).toEqual(LEX.slice(0, 3).map((r) => r.id));
      expect(hits.every((h) => h.score > 0 && h.similarity === undefined)).toBe(true);
      expect(await sut.lexicalSearch('conversations', { text: 'the and of', topK: 5 })).toEqual([]);
      const other = await sut.lexicalSearch('conversations', {
        text: LEX_QUERY,
        topK: 10,
        filter: { contact_uid: 'ctc_target' },
      });
      expect(other).toEqual([]);
    });

    it('lexical hits carry their cosine to the query vector when one is given', async () => {
      const embedding = vec(0, 0.2);
      const hits = await sut.lexicalSearch('conversations', {
        text: LEX_QUERY,
        embedding,
        topK: 2,
        filter: { contact_uid: 'ctc_lex', location_uids: ['loc_0', 'loc_1'] },
      });
      expect(hits.map((h) => h.id)).toEqual([LEX[0].id, LEX[1].id]);
      hits.forEach((h, i) =>
        expect(h.similarity).toBeCloseTo(cosine(embedding, LEX[i].embedding), 5),
      );
    });

    it('hybridSearch returns exactly the dense and lexical lists of the separate searches', async () => {
      const query = {
        embedding: vec(0, 0.3),
        text: LEX_QUERY,
        topK: 3,
        filter: { contact_uid: 'ctc_lex' },
      };
      const both = await sut.hybridSearch('conversations', query);
      const dense = await sut.search('conversations', query);
      const lexical = await sut.lexicalSearch('conversations', query);
      expect(both.dense.map((h) => h.id)).toEqual(LEX.slice(0, 3).map((r) => r.id));
      expect(both.dense.map((h) => h.id)).toEqual(dense.map((h) => h.id));
      expect(both.lexical.map((h) => h.id)).toEqual(lexical.map((h) => h.id));
      both.lexical.forEach((h, i) => {
        expect(h.similarity).toBeCloseTo(cosine(query.embedding, LEX[i].embedding), 5);
        expect(h.content).toBe(LEX[i].content);
      });
      expect(both.dense.every((h) => h.similarity === undefined)).toBe(true);
      const noTerms = await sut.hybridSearch('conversations', { ...query, text: 'the of' });
      expect(noTerms.lexical).toEqual([]);
      expect(noTerms.dense).toHaveLength(3);
      const unfiltered = await sut.hybridSearch('conversations', { ...query, filter: undefined });
      expect(unfiltered.dense).toHaveLength(3);
    });

    it('replaceTopic leaves no stale chunks, spares other topics, and re-runs change nothing', async () => {
      expect(await sut.replaceTopic('source_chunks', 't1', KB.t1)).toEqual({
        inserted: 2,
        skipped: 0,
      });
      await sut.replaceTopic('source_chunks', 't2', KB.t2);
      expect(await sut.replaceTopic('source_chunks', 't1', KB.t1Edited)).toEqual({
        inserted: 2,
        skipped: 1,
      });
      expect(await sut.replaceTopic('source_chunks', 't1', KB.t1Edited)).toEqual({
        inserted: 0,
        skipped: 3,
      });
      const all = await sut.search('source_chunks', { embedding: vec(2), topK: 10 });
      expect(contents(all).sort()).toEqual([...KB.t1Edited, ...KB.t2].map((c) => c.content).sort());
      expect(await sut.count('source_chunks')).toBe(4);
      await sut.replaceTopic('source_chunks', 't2', []);
      expect(await sut.count('source_chunks')).toBe(3);
    });

    it('KB search keeps the score threshold and the chunk payload (the chat path)', async () => {
      const threshold = cosine(vec(2), vec(2, 0.3)) - 1e-4;
      const hits = await sut.search('source_chunks', {
        embedding: vec(2),
        topK: 5,
        scoreThreshold: threshold,
      });
      expect(hits.map((h) => h.id)).toEqual(KB.t1Edited.slice(0, 2).map((c) => c.id));
      expect(hits[1].payload).toEqual(KB.t1Edited[1].payload);
      await sut.replaceTopic('topic_summaries', 't1', [
        { ...KB.t1[0], payload: { topic_id: 't1', title: 'Title t1', theme_id: 'th1' } },
      ]);
      const [summary] = await sut.search('topic_summaries', { embedding: vec(2), topK: 3 });
      expect(summary.payload).toEqual({ topic_id: 't1', title: 'Title t1', theme_id: 'th1' });
      const lexical = await sut.lexicalSearch('source_chunks', { text: 'tactical roles', topK: 5 });
      expect(lexical.length).toBeGreaterThan(0);
    });

    it('reports which ids exist', async () => {
      const missing = id('missing');
      expect(await sut.existingIds('conversations', [TARGET[0].id, missing])).toEqual(
        new Set([TARGET[0].id]),
      );
      expect(await sut.existingIds('conversations', [])).toEqual(new Set());
    });

    it('re-keys a merged contact and deletes a removed contact', async () => {
      const mine = async (contact: string) =>
        contents(
          await sut.search('conversations', {
            embedding: vec(0),
            topK: 50,
            filter: { contact_uid: contact },
          }),
        );
      expect(await sut.reassignContact('ctc_lex', 'ctc_merged')).toBe(4);
      expect(await mine('ctc_lex')).toEqual([]);
      expect((await mine('ctc_merged')).sort()).toEqual(LEX.map((r) => r.content).sort());
      expect(await sut.reassignContact('ctc_nobody', 'ctc_merged')).toBe(0);
      expect(await sut.deleteContact('ctc_merged')).toEqual({ removed: 4, complete: true });
      expect(await mine('ctc_merged')).toEqual([]);
      expect(await sut.deleteContact('ctc_merged')).toEqual({ removed: 0, complete: true });
      expect(await mine('ctc_target')).toHaveLength(12);
      expect(await sut.isHealthy()).toBe(true);
    });
  });
}
