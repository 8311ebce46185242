import {
  BULK_BATCH_CHARS,
  CONTEXT_QUIET_MS,
  EmbedderBusyError,
  LANE_CAPACITY,
  LaneQueue,
  MAX_BATCH,
  MAX_PADDED_CHARS,
  QUERY_QUIET_MS,
  type QueuedText,
} from './lane-queue';

describe('LaneQueue', () => {
  let now: number;
  let sut: LaneQueue<QueuedText>;
  const item = (text: string, signal?: AbortSignal): QueuedText => ({ text, signal });
  const texts = (batch: QueuedText[] | undefined) => batch?.map((i) => i.text);

  beforeEach(() => {
    now = 0;
    sut = new LaneQueue(() => now);
  });

  it('serves queries before bulk work queued earlier', () => {
    sut.push(item('bulk 1'), 'bulk');
    sut.push(item('bulk 2'), 'bulk');
    sut.push(item('live'), 'query');
    expect(texts(sut.next(2, 2))).toEqual(['live']);
  });

  it('splits a burst of queries across the idle workers, at most MAX_BATCH each', () => {
    for (let i = 0; i < 10; i++) {
      sut.push(item(`q${i}`), 'query');
    }
    expect(sut.next(2, 2)).toHaveLength(5);
    expect(sut.next(1, 2)).toHaveLength(5);
    for (let i = 0; i < 100; i++) {
      sut.push(item(`q${i}`), 'context');
    }
    expect(sut.next(1, 2)).toHaveLength(MAX_BATCH);
  });

  it('keeps the last free worker for live queries while they are arriving', () => {
    sut.push(item('live'), 'query');
    sut.next(2, 2);
    ['a', 'b', 'c'].forEach((t) => sut.push(item(t), 'bulk'));
    expect(texts(sut.next(2, 2))).toEqual(['a', 'b', 'c']); // one of two workers: fine
    ['d', 'e'].forEach((t) => sut.push(item(t), 'bulk'));
    expect(sut.next(1, 2)).toBeUndefined(); // the last one waits for the next query
    now += QUERY_QUIET_MS;
    expect(texts(sut.next(1, 2))).toEqual(['d', 'e']); // quiet again: bulk may use it
  });

  it('counts /context as calling for CONTEXT_QUIET_MS after its last query', () => {
    expect(sut.contextLive).toBe(false);
    sut.push(item('other route'), 'query');
    expect(sut.contextLive).toBe(false);
    sut.push(item('context'), 'context');
    now += CONTEXT_QUIET_MS - 1;
    expect(sut.contextLive).toBe(true);
    now += 1;
    expect(sut.contextLive).toBe(false);
  });

  it('counts the texts waiting in each lane', () => {
    sut.push(item('q1'), 'query');
    sut.push(item('q2'), 'query');
    sut.push(item('c'), 'context');
    expect([sut.queued('query'), sut.queued('context'), sut.queued('bulk')]).toEqual([2, 1, 0]);
  });

  it('a single worker still runs bulk work (nothing to reserve)', () => {
    sut.push(item('live'), 'query');
    sut.next(1, 1);
    sut.push(item('bulk'), 'bulk');
    expect(texts(sut.next(1, 1))).toEqual(['bulk']);
  });

  it('cuts bulk batches by size so a worker comes back quickly, but always takes one', () => {
    const long = 'x'.repeat(BULK_BATCH_CHARS / 3);
    for (let i = 0; i < 6; i++) {
      sut.push(item(long), 'bulk');
    }
    expect(sut.next(2, 2)).toHaveLength(3);
    sut.takeAll();
    sut.push(item('y'.repeat(BULK_BATCH_CHARS * 2)), 'bulk');
    expect(sut.next(2, 2)).toHaveLength(1);
  });

  it('hands back aborted items from both lanes and forgets them', () => {
    const gone = new AbortController();
    sut.push(item('q-gone', gone.signal), 'query');
    sut.push(item('b-gone', gone.signal), 'bulk');
    sut.push(item('kept'), 'bulk');
    gone.abort();
    expect(texts(sut.takeAborted())).toEqual(['q-gone', 'b-gone']);
    expect(sut.length).toBe(1);
  });

  it('serves /context queries before other live queries queued earlier', () => {
    sut.push(item('search'), 'query');
    sut.push(item('context'), 'context');
    expect(texts(sut.next(1, 2))).toEqual(['context']);
    expect(texts(sut.next(2, 2))).toEqual(['search']);
  });

  it('while /context is calling, other live routes leave it the last free worker', () => {
    sut.push(item('context'), 'context');
    sut.next(2, 2);
    for (let i = 0; i < 8; i++) {
      sut.push(item(`chat ${i}`), 'query');
    }
    // Both workers idle: the flood gets one, split as if it were the only one.
    expect(sut.next(2, 2)).toHaveLength(8);
    for (let i = 0; i < 8; i++) {
      sut.push(item(`chat ${i}`), 'query');
    }
    expect(sut.next(1, 2)).toBeUndefined(); // kept for the next /context query
    sut.push(item('context 2'), 'context');
    expect(texts(sut.next(1, 2))).toEqual(['context 2']);
    now += CONTEXT_QUIET_MS;
    expect(sut.next(1, 2)).toHaveLength(8); // /context quiet: the flood may use it
  });

  it('cuts live batches of long texts by padded size, so a worker never pads 32 long texts', () => {
    const long = 'x'.repeat(2000);
    for (let i = 0; i < 32; i++) {
      sut.push(item(long), 'query');
    }
    const batch = sut.next(1, 1) ?? [];
    // Old code: all 32 in one batch (a worker's memory grew by ~280 MB and stayed there).
    expect(batch).toHaveLength(MAX_PADDED_CHARS / long.length);
    sut.push(item('x'.repeat(MAX_PADDED_CHARS * 2)), 'context');
    expect(sut.next(1, 1)).toHaveLength(1); // one text always goes, however long
    for (let i = 0; i < 40; i++) {
      sut.push(item(`short query ${i}`), 'context');
    }
    expect(sut.next(1, 1)).toHaveLength(MAX_BATCH); // short queries still batch in full
  });

  it('without /context traffic, other live routes use every worker', () => {
    for (let i = 0; i < 4; i++) {
      sut.push(item(`search ${i}`), 'query');
    }
    expect(sut.next(2, 2)).toHaveLength(2);
    expect(sut.next(1, 2)).toHaveLength(2);
  });

  it('refuses texts past a live lane capacity; the other lane keeps its own share', () => {
    for (let i = 0; i < LANE_CAPACITY.query; i++) {
      sut.push(item(`flood ${i}`), 'query');
    }
    expect(sut.hasRoom('query', 1)).toBe(false);
    expect(() => sut.push(item('one more'), 'query')).toThrow(EmbedderBusyError);
    expect(new EmbedderBusyError('query')).toMatchObject({
      code: 'embedder_busy',
      httpStatus: 503,
    });
    expect(sut.hasRoom('context', LANE_CAPACITY.context)).toBe(true);
    expect(sut.hasRoom('context', LANE_CAPACITY.context + 1)).toBe(false);
    sut.push(item('live'), 'context');
    expect(texts(sut.next(1, 1))).toEqual(['live']);
    expect(sut.hasRoom('bulk', 100_000)).toBe(true); // bulk is bounded by ingest admission
  });

  it('takes aborted items out of a long lane in order, keeping the rest in order', () => {
    const gone = new AbortController();
    for (let i = 0; i < LANE_CAPACITY.context; i++) {
      sut.push(item(`c${i}`, i % 2 === 0 ? gone.signal : undefined), 'context');
    }
    gone.abort();
    const aborted = texts(sut.takeAborted()) ?? [];
    expect(aborted).toHaveLength(LANE_CAPACITY.context / 2);
    expect(aborted.slice(0, 2)).toEqual(['c0', 'c2']);
    expect(texts(sut.next(1, 1))?.slice(0, 2)).toEqual(['c1', 'c3']);
  });
});
