import { type TranscriptCoalescer } from '@app/coalescer';

import { type AppConfig } from '../../config/app-config';
import { MetricsService } from '../../metrics/metrics.service';
import { type ContextRetriever, type RankedPool } from '../context-retriever';
import { CallSession } from './call-sessions';
import { QueryTerms } from './query-match';
import { DEBOUNCE_MS, MAX_INTERIMS_PER_SECOND, Speculator } from './speculator';

const config = { calls: { speculation: true, matchThreshold: 0.6 } } as AppConfig;
const pool: RankedPool = { pool: [], reranked: true, missed: false };

describe('Speculator', () => {
  let searched: string[];
  let sut: Speculator;
  let session: CallSession;
  const work = (busy = () => false) => ({ poolK: 20, coalescerKey: 'k', filter: {}, busy });
  const interim = (text: string) => sut.interim(session, text, work());

  beforeEach(() => {
    jest.useFakeTimers();
    searched = [];
    const coalescer = { preview: (_k: string, text: string) => Promise.resolve(text) };
    const retriever = {
      retrieve: (query: string) => {
        searched.push(query);
        return Promise.resolve(pool);
      },
    };
    sut = new Speculator(
      config,
      coalescer as unknown as TranscriptCoalescer,
      retriever as unknown as ContextRetriever,
      new MetricsService(),
    );
    session = new CallSession('k', { caller: 'c', callId: 'call', scope: undefined });
  });

  afterEach(() => jest.useRealTimers());

  it('searches only the interim that stays stable past the debounce', async () => {
    interim('order');
    interim('my order number');
    interim('my order number is late');
    await jest.advanceTimersByTimeAsync(DEBOUNCE_MS + 1);
    expect(searched).toEqual(['my order number is late']);
  });

  it('does not search again while the running search covers the interim', async () => {
    interim('dining table leg scratched');
    await jest.advanceTimersByTimeAsync(DEBOUNCE_MS + 1);
    interim('the dining table leg is scratched'); // no new term: served by the running one
    await jest.advanceTimersByTimeAsync(DEBOUNCE_MS + 1);
    interim('refund for the broken lamp'); // a different question: searched
    await jest.advanceTimersByTimeAsync(DEBOUNCE_MS + 1);
    expect(searched).toEqual(['dining table leg scratched', 'refund for the broken lamp']);
    expect(sut.stats.superseded).toBe(1);
  });

  it('caps interims per call per second; the next second is searched again', () => {
    const outcomes = Array.from({ length: MAX_INTERIMS_PER_SECOND + 5 }, (_, i) =>
      interim(`word ${i}`),
    );
    expect(outcomes.filter((o) => o === 'scheduled')).toHaveLength(MAX_INTERIMS_PER_SECOND);
    expect(outcomes.filter((o) => o === 'rate_limited')).toHaveLength(5);
    jest.advanceTimersByTime(1000);
    expect(interim('again')).toBe('scheduled');
  });

  it('sheds speculation while finals need the capacity', async () => {
    sut.interim(
      session,
      'dining table leg',
      work(() => true),
    );
    await jest.advanceTimersByTimeAsync(DEBOUNCE_MS + 1);
    expect(searched).toEqual([]);
    expect(sut.stats.shed).toBe(1);
  });

  it('a final of another call aborts its running search; the final of its own call does not', async () => {
    const signals: AbortSignal[] = [];
    // A search still queued: it leaves the queue when aborted, as the database's queue does.
    const retriever = {
      retrieve: (...args: unknown[]) => {
        const signal = args[6] as AbortSignal;
        signals.push(signal);
        return new Promise<RankedPool>((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted'))),
        );
      },
    };
    sut = new Speculator(
      config,
      {
        preview: (_k: string, text: string) => Promise.resolve(text),
      } as unknown as TranscriptCoalescer,
      retriever as unknown as ContextRetriever,
      new MetricsService(),
    );
    interim('dining table leg scratched');
    await jest.advanceTimersByTimeAsync(DEBOUNCE_MS + 1);
    expect(sut.active).toBe(1);
    sut.yieldTo(session); // its own final: keeps it, to be served from it
    expect(signals[0].aborted).toBe(false);
    sut.yieldTo(new CallSession('other', { caller: 'c', callId: 'other', scope: undefined }));
    expect(signals[0].aborted).toBe(true);
    expect(sut.stats.preempted).toBe(1);
    // A preempted search serves nothing, and the next stable interim searches again.
    interim('dining table leg scratched');
    await jest.advanceTimersByTimeAsync(DEBOUNCE_MS + 1);
    expect(signals).toHaveLength(2);
  });

  it('prepares the final’s evidence once the pool is in, unless a final is in flight', async () => {
    const prepare = jest.fn((query: string) => `evidence for ${query}`);
    sut.interim(session, 'dining table leg scratched', { ...work(), prepare });
    await jest.advanceTimersByTimeAsync(DEBOUNCE_MS + 1);
    const final = new QueryTerms('dining table leg scratched');
    expect(await sut.take(session, final, 20, () => 100)).toMatchObject({
      query: 'dining table leg scratched',
      prepared: 'evidence for dining table leg scratched',
    });

    // Idle when it starts, a final in flight once its pool is in: served, nothing prepared.
    let checks = 0;
    sut.interim(session, 'dining table leg scratched', { ...work(() => checks++ > 0), prepare });
    await jest.advanceTimersByTimeAsync(DEBOUNCE_MS + 1);
    const served = await sut.take(session, final, 20, () => 100);
    expect(served?.ranked).toBe(pool);
    expect(served?.prepared).toBeUndefined();
    expect(prepare).toHaveBeenCalledTimes(1);
  });

  it('serves a final whose terms were all searched, and only that one', async () => {
    interim('dining table leg scratched');
    await jest.advanceTimersByTimeAsync(DEBOUNCE_MS + 1);
    const served = await sut.take(
      session,
      new QueryTerms('the dining table leg is scratched'),
      20,
      () => 100,
    );
    expect(served?.similarity).toBe(1);

    interim('dining table leg scratched');
    await jest.advanceTimersByTimeAsync(DEBOUNCE_MS + 1);
    const other = await sut.take(session, new QueryTerms('refund for my lamp'), 20, () => 100);
    expect(other).toBeUndefined();
    // A final with a term the speculation lacked is searched afresh.
    interim('dining table leg scratched');
    await jest.advanceTimersByTimeAsync(DEBOUNCE_MS + 1);
    expect(
      await sut.take(session, new QueryTerms('dining table leg scratched badly'), 20, () => 100),
    ).toBeUndefined();
    // Another pool size is another search.
    interim('dining table leg scratched');
    await jest.advanceTimersByTimeAsync(DEBOUNCE_MS + 1);
    expect(
      await sut.take(session, new QueryTerms('dining table leg scratched'), 5, () => 100),
    ).toBeUndefined();
  });
});
