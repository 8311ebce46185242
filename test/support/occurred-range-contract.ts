import { type VectorRecord, type VectorStore } from '@app/vector';

import { DIMENSION, id, vec } from './vector-store-contract';

/**
 * The `occurred_at` range filter, written once and run per provider (vector-store.e2e-spec):
 * one contact's windows a day apart, all near the query in both lists, so only the range
 * decides which come back. The old stores ignored the range and returned all of them.
 */

const DAY = 86_400_000;
const START = Date.UTC(2023, 4, 1, 12); // 1 May 2023, noon
const at = (day: number) => new Date(START + day * DAY).toISOString();

/** Ten windows of ctc_dated, 1–10 May 2023 at noon, the earlier ones nearer the query. */
const DATED: VectorRecord<'conversations'>[] = Array.from({ length: 10 }, (_, day) => ({
  id: id('dated', String(day)),
  content: `picnic by the lake, day ${day}`,
  embedding: vec(4, day / 10),
  payload: {
    contact_uid: 'ctc_dated',
    location_uid: day % 2 ? 'loc_1' : 'loc_0',
    conversation_uid: `conv_dated_${day}`,
    channel: 'sms',
    occurred_at: at(day),
  },
}));
const days = (hits: Array<{ id: string }>) =>
  hits.map((h) => DATED.findIndex((r) => r.id === h.id));

export function occurredRangeContract(
  provider: string,
  open: () => Promise<{ store: VectorStore; close(): Promise<void> }>,
): void {
  describe(`VectorStore occurred_at range: ${provider}`, () => {
    let sut: VectorStore;
    let close: () => Promise<void>;
    // 3 May 00:00 to 6 May 00:00: the windows of days 2, 3 and 4.
    const range = { from: '2023-05-03T00:00:00.000Z', to: '2023-05-06T00:00:00.000Z' };
    const query = { embedding: vec(4), text: 'picnic lake', topK: 10 };

    beforeAll(async () => {
      ({ store: sut, close } = await open());
      await sut.init(DIMENSION);
      await sut.upsert('conversations', DATED);
    });
    afterAll(() => close());

    it('dense, lexical and hybrid searches keep only windows inside [from, to)', async () => {
      const filter = { contact_uid: 'ctc_dated', occurred_at: range };
      expect(days(await sut.search('conversations', { ...query, filter }))).toEqual([2, 3, 4]);
      const lexical = await sut.lexicalSearch('conversations', { ...query, filter });
      expect(days(lexical).sort()).toEqual([2, 3, 4]);
      const both = await sut.hybridSearch('conversations', { ...query, filter });
      expect(days(both.dense)).toEqual([2, 3, 4]);
      expect(days(both.lexical).sort()).toEqual([2, 3, 4]);
      // Without the range, every day: the range is what narrows.
      const all = await sut.hybridSearch('conversations', {
        ...query,
        filter: { contact_uid: 'ctc_dated' },
      });
      expect(all.dense).toHaveLength(10);
    });

    it('the bounds are half-open, exact to the millisecond', async () => {
      const exact = { from: at(2), to: at(4) }; // day 2's instant in, day 4's out
      const hits = await sut.search('conversations', {
        ...query,
        filter: { contact_uid: 'ctc_dated', occurred_at: exact },
      });
      expect(days(hits)).toEqual([2, 3]);
      const offset = { from: '2023-05-03T14:00:00+02:00', to: '2023-05-03T14:00:00.001+02:00' };
      const one = await sut.search('conversations', {
        ...query,
        filter: { contact_uid: 'ctc_dated', occurred_at: offset },
      });
      expect(days(one)).toEqual([2]); // 12:00Z written with an offset
    });

    it('combines with the location scope and with no contact at all', async () => {
      const scoped = await sut.hybridSearch('conversations', {
        ...query,
        filter: { contact_uid: 'ctc_dated', location_uids: ['loc_0'], occurred_at: range },
      });
      expect(days(scoped.dense)).toEqual([2, 4]);
      expect(days(scoped.lexical).sort()).toEqual([2, 4]);
      const anyContact = await sut.search('conversations', {
        ...query,
        filter: { occurred_at: range },
      });
      expect(days(anyContact)).toEqual([2, 3, 4]);
    });

    it('an empty or inverted range finds nothing, a far one nothing, and a bad bound throws', async () => {
      const search = (occurred_at: { from: string; to: string }) =>
        sut.hybridSearch('conversations', {
          ...query,
          filter: { contact_uid: 'ctc_dated', occurred_at },
        });
      expect(await search({ from: at(3), to: at(3) })).toEqual({ dense: [], lexical: [] });
      expect(await search({ from: at(5), to: at(2) })).toEqual({ dense: [], lexical: [] });
      expect(await search({ from: '1900-01-01T00:00:00Z', to: '1900-02-01T00:00:00Z' })).toEqual({
        dense: [],
        lexical: [],
      });
      await expect(search({ from: 'not a date', to: at(3) })).rejects.toThrow(RangeError);
    });

    it('other collections carry no time and ignore the range', async () => {
      await sut.replaceTopic('source_chunks', 'dated_topic', [
        {
          id: id('dated-chunk'),
          content: 'picnic rules',
          embedding: vec(4),
          payload: { topic_id: 'dated_topic', title: 'Picnics', theme_id: null, chunk_index: 0 },
        },
      ]);
      const hits = await sut.hybridSearch('source_chunks', {
        ...query,
        filter: { occurred_at: range },
      });
      expect(hits.dense.map((h) => h.content)).toEqual(['picnic rules']);
      expect(hits.lexical.map((h) => h.content)).toEqual(['picnic rules']);
    });
  });
}
