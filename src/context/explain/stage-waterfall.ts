import { roundMs } from '@app/common';

import { type ExplainStage } from './context-explain.dto';

type Lane = ExplainStage['lane'];

/**
 * A timing waterfall from `meta.stages`, which holds durations only: the pipeline's order is
 * fixed (intake → queue → coalesce → live ‖ embed → search → rerank → select → redact →
 * budget), so each start is the end of what it waits for. Derived rather than stamped so the
 * normal path records nothing more than it did; the gaps between stages (microseconds of
 * bookkeeping) are folded into the next start. Unknown stages follow the last bar.
 */
export function stageWaterfall(stages: Readonly<Record<string, number>>): ExplainStage[] {
  const ms = (name: string) => stages[`${name}_ms`];
  const out: ExplainStage[] = [];
  const seen = new Set<string>();
  const bar = (name: string, start: number, lane: Lane): number => {
    const took = ms(name);
    if (took === undefined) {
      return start;
    }
    seen.add(`${name}_ms`);
    out.push({ name, start_ms: roundMs(start), ms: took, lane });
    return start + took;
  };

  let t = bar('intake', 0, 'main');
  t = bar('queue', t, 'main');
  t = bar('coalesce', t, 'main');
  const fanOut = t;
  const liveEnd = bar('live', fanOut, 'live');
  // `retrieve` spans embed and search; the two bars inside it show where its time went.
  const retrieveEnd = bar('retrieve', fanOut, 'retrieval');
  bar('search', bar('embed', fanOut, 'retrieval'), 'retrieval');
  const rerankEnd = bar('rerank', retrieveEnd, 'retrieval');
  t = Math.max(liveEnd, rerankEnd);
  t = bar('select', t, 'main');
  t = bar('redact', t, 'main');
  t = bar('budget', t, 'main');
  for (const [key, took] of Object.entries(stages)) {
    if (!seen.has(key)) {
      out.push({ name: key.replace(/_ms$/, ''), start_ms: roundMs(t), ms: took, lane: 'main' });
      t += took;
    }
  }
  return out;
}
