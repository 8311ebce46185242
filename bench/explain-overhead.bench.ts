/**
 * What the explain mode costs /context, and that the normal path did not get slower: one
 * server on the demo store measured with `explain` absent and with `explain: true`, and,
 * given BENCH_BASELINE_ROOT (another checkout with its own node_modules, e.g. a worktree of
 * main), that checkout's server on the same requests without explain. Interleaved rounds at
 * concurrency 1 and 8, alternating the order, so the box's noise falls on every mode alike.
 * Requests differ in text, so every one embeds.
 *
 *   npm run bench:explain   # BENCH_ROUNDS (3), BENCH_REQUESTS (c=1: 100, c=8: 4× that)
 *   BENCH_BASELINE_ROOT=/tmp/wt-main npm run bench:explain
 */
import { DEMO_ALICE_PHRASES } from './support/demo-phrases';
import { JsonClient } from './support/http-client';
import { interleavedRounds, throughputRatio } from './support/interleaved-rounds';
import { startServerProcess } from './support/server-process';
import { printJson } from './support/stats';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100);
const BASELINE = process.env.BENCH_BASELINE_ROOT;
const LEVELS = [1, 8];

type Mode = 'off' | 'on' | 'baseline';

async function main() {
  const env = { DATA_DIR: 'memory://', SEED_DEMO_DATA: 'true' };
  const branch = await startServerProcess(env);
  const base = BASELINE ? await startServerProcess(env, BASELINE) : undefined;
  const clients: Partial<Record<Mode, JsonClient>> = {
    off: new JsonClient(branch.url),
    on: new JsonClient(branch.url),
    ...(base ? { baseline: new JsonClient(base.url) } : {}),
  };
  let seq = 0;
  try {
    const results = await interleavedRounds({
      modes: Object.keys(clients) as Mode[],
      levels: LEVELS,
      rounds: ROUNDS,
      requests: REQUESTS,
      request: async (mode) => {
        const i = seq++;
        const { status, body } = await clients[mode]!.post<{
          meta: { partial: boolean };
          explain?: unknown;
        }>('/context', {
          transcript: `${DEMO_ALICE_PHRASES[i % DEMO_ALICE_PHRASES.length]} (ref ${i})`,
          contact_uid: 'ctc_demo_alice',
          ...(mode === 'on' ? { explain: true } : {}),
        });
        if (status !== 200 || (mode === 'on') !== (body.explain !== undefined)) {
          throw new Error(`HTTP ${status}, explain ${body.explain !== undefined}`);
        }
        return body.meta.partial;
      },
    });
    printJson({
      bench: 'explain-overhead',
      rounds: ROUNDS,
      results,
      throughput_on_over_off: throughputRatio(results, 'on', 'off', LEVELS),
      ...(base
        ? { throughput_off_over_baseline: throughputRatio(results, 'off', 'baseline', LEVELS) }
        : {}),
    });
  } finally {
    await Promise.all([branch.stop(), base?.stop()]);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
