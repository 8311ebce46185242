import { type INestApplicationContext } from '@nestjs/common';

import { datedRange } from '../../src/context/dated/dated-leg';
import { HybridSearchService } from '../../src/retrieval/hybrid-search.service';
import { ingestLocomo } from './locomo-live';
import { summarize } from './stats';

/**
 * What issue 40's date leg costs, A/B in one process on one store: for each LoCoMo question
 * that names a date, the service's first stage (`HybridSearchService.pool`, its search time:
 * both statements, not the embed) with the range (the leg) and without (every undated
 * question, and the code before the leg), the two interleaved per question in alternating
 * order over `rounds` passes after a warm-up pass. An undated question pays only the parse,
 * timed over every question.
 */
export async function datedCost(
  app: INestApplicationContext,
  rounds: number,
  log: (m: string) => void,
) {
  const set = await ingestLocomo(app, log);
  const hybrid = app.get(HybridSearchService);
  const dated = set.questions
    .map((q) => ({ q, range: datedRange(q.question) }))
    .filter((d) => d.range !== undefined);
  log(`locomo-dated-cost: ${dated.length} of ${set.questions.length} questions name a date`);
  const samples = { without: [] as number[], with: [] as number[] };
  for (let round = 0; round <= rounds; round++) {
    for (const [i, { q, range }] of dated.entries()) {
      const modes =
        (i + round) % 2 ? (['with', 'without'] as const) : (['without', 'with'] as const);
      for (const mode of modes) {
        const pool = await hybrid.pool(
          q.question,
          { contact_uid: q.contact_uid },
          20,
          undefined,
          'context',
          mode === 'with' ? range : undefined,
        );
        // Round 0 warms the plans and caches.
        if (round > 0) {
          samples[mode].push(pool.timings.search_ms);
        }
      }
    }
    log(`locomo-dated-cost: round ${round}/${rounds}`);
  }
  const parse: number[] = [];
  for (let round = 0; round < 20; round++) {
    const t = performance.now();
    set.questions.forEach((q) => datedRange(q.question));
    parse.push(((performance.now() - t) * 1000) / set.questions.length);
  }
  const [a, b] = [summarize(samples.without), summarize(samples.with)];
  const ratio = (x: number, y: number) => Math.round((x / y) * 100) / 100;
  return {
    dated_questions: dated.length,
    questions: set.questions.length,
    search_ms_without_leg: a,
    search_ms_with_leg: b,
    p50_ratio: ratio(b.p50, a.p50),
    p99_ratio: ratio(b.p99, a.p99),
    parse_us_per_question: summarize(parse),
  };
}
