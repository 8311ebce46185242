import { stageWaterfall } from './stage-waterfall';

describe('stageWaterfall', () => {
  it('starts each stage where what it waits for ends; live and retrieval run side by side', () => {
    const sut = stageWaterfall({
      intake_ms: 2,
      queue_ms: 1,
      coalesce_ms: 0.5,
      live_ms: 20,
      retrieve_ms: 10,
      embed_ms: 4,
      search_ms: 6,
      rerank_ms: 1,
      select_ms: 0.5,
      redact_ms: 0.3,
      budget_ms: 0.2,
    });
    const at = (name: string) => sut.find((s) => s.name === name);
    expect(at('coalesce')).toEqual({ name: 'coalesce', start_ms: 3, ms: 0.5, lane: 'main' });
    expect(at('live')).toMatchObject({ start_ms: 3.5, lane: 'live' });
    expect(at('embed')).toMatchObject({ start_ms: 3.5, lane: 'retrieval' });
    expect(at('search')).toMatchObject({ start_ms: 7.5, lane: 'retrieval' });
    expect(at('rerank')).toMatchObject({ start_ms: 13.5 });
    // The slower lane (live, 20 ms) decides when evidence starts.
    expect(at('select')?.start_ms).toBe(23.5);
    expect(at('budget')?.start_ms).toBe(24.3);
  });

  it('skips stages that did not run and appends unknown ones after the last', () => {
    const sut = stageWaterfall({ intake_ms: 1, queue_ms: 2, later_ms: 3 });
    expect(sut).toEqual([
      { name: 'intake', start_ms: 0, ms: 1, lane: 'main' },
      { name: 'queue', start_ms: 1, ms: 2, lane: 'main' },
      { name: 'later', start_ms: 3, ms: 3, lane: 'main' },
    ]);
  });
});
