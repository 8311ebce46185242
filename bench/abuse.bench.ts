/**
 * Issue 37's flood bench: steady /context traffic at c=1 (one call after the other) beside
 * one attack at a time, and the same traffic alone (the quiet baseline). Per phase it prints
 * the live calls' client p50/p99, late (server-measured past `timeout_ms` + 25 ms), partial
 * and 5xx counts, the longest event-loop block as a client sees it (a GET /health/live every
 * 10 ms: its longest answer) beside the server's and this process's own longest loop delay,
 * the server's peak RSS (`rss`: each side's peak per phase against issue 37's 1.5 GB line),
 * and what the attacker got back (status and error code counts). To
 * say where the time went: the live calls' server stage timings (`live.stages_ms`: mean and
 * p99 per stage, and the slowest 5%'s mean) and the cores used (`cpu`: the server's main
 * thread and other threads by name and nice, its Postgres backends, the attacker's process
 * and this one).
 *
 *   npm run bench:abuse   # BENCH_ATTACK_S (15), BENCH_SEED (37), BENCH_ROOT (this checkout),
 *                         # BENCH_ATTACKS (a comma list of attack names; default all)
 *
 * With BENCH_BASELINE_ROOT (another checkout with its node_modules, e.g. a worktree of an older
 * commit) both checkouts' servers run side by side and every attack is measured on each in
 * turn, each right after a quiet phase of its own (BENCH_ROUNDS rounds, 1 by default, the
 * order reversed every other round): the ratio attack ÷ quiet then compares like with like on
 * a box whose load drifts, and `ab` prints both sides' ratios.
 *
 * Attacks: 100 slow-loris sockets (run past HTTP_BODY_TIMEOUT_MS, 30 s, to see them cut),
 * 32 MB junk NDJSON uploads, MCP 100-call batches, a /chat flood (32 clients), a
 * /health/ready flood (32 clients), adversarial /redact bodies, 50 hostile call-stream clients
 * (unread finals, slow readers, ping floods, interim floods, junk frames) and 50 stream slow
 * readers (bench/support/abuse-streams.ts); and with TEST_DATABASE_URL
 * (or DATABASE_URL) 50 concurrent forgets and ingests on Postgres with a pool of 10
 * (`bash scripts/pg-test-server.sh run -- npm run bench:abuse`).
 *
 * The service runs in its own process as `npm start` runs it (`startServerProcess`), on an
 * in-memory store seeded with SGD history; no API keys, no rate limits (the attacker and the
 * live caller share one loopback IP: the bounds under test must hold without them).
 */
import { loadavg } from 'node:os';

import { type AttackName } from './support/abuse-attacks';
import { databaseFor } from './support/abuse-databases';
import { rssAgainstLine } from './support/abuse-memory';
import { type PhaseResult, type PhaseRow, phaseRow, runPhase } from './support/abuse-phase';
import { contextShooter, post, type Shot } from './support/load-steps';
import { startServerProcess } from './support/server-process';
import { loadSgdConversations, sgdToMessages } from './support/sgd';
import { printJson } from './support/stats';

const ATTACK_S = Number(process.env.BENCH_ATTACK_S ?? 15);
/** Past the 30 s body deadline, so the slow sockets' answers are seen. */
const LORIS_S = Math.max(ATTACK_S, 36);
const SEED = Number(process.env.BENCH_SEED ?? 37);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const BASELINE = process.env.BENCH_BASELINE_ROOT;
const ONLY = process.env.BENCH_ATTACKS?.split(',').filter(Boolean);
const TIMEOUT_MS = 800;

const PGLITE_ATTACKS: Array<[string, number, AttackName]> = (
  [
    ['slow-loris x100', LORIS_S, 'slow-loris'],
    ['junk ndjson 32 MB', ATTACK_S, 'junk-ndjson'],
    ['mcp 100-call batches', ATTACK_S, 'mcp-batches'],
    ['chat flood x32', ATTACK_S, 'chat-flood'],
    ['health/ready flood x32', ATTACK_S, 'ready-flood'],
    ['adversarial redact 60 KB', ATTACK_S, 'adversarial-redact'],
    ['call-stream flood x50', ATTACK_S, 'call-stream-flood'],
    ['call-stream slow readers x50', ATTACK_S, 'call-stream-slow-readers'],
  ] as Array<[string, number, AttackName]>
).filter(([, , attack]) => !ONLY || ONLY.includes(attack));

interface Side {
  name: string;
  url: string;
  pid: number;
  database?: string;
  fire: (i: number) => Promise<Shot>;
  stop(): Promise<void>;
}

async function seeded(
  name: string,
  env: Record<string, string>,
  root?: string,
  database?: string,
): Promise<Side> {
  const server = await startServerProcess(env, root);
  try {
    const messages = sgdToMessages(loadSgdConversations(24), 4);
    await post(`${server.url}/ingest/conversations`, messages);
    const contacts = [...new Set(messages.map((m) => m.contact_uid))];
    const fire = contextShooter(server.url, contacts, TIMEOUT_MS, `${SEED}`);
    for (let i = 0; i < 40; i++) {
      await fire(i); // warm-up
    }
    return { name, url: server.url, pid: server.pid, database, fire, stop: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

const phase = (side: Side, seconds: number, attack?: AttackName) =>
  runPhase({
    url: side.url,
    fire: side.fire,
    seconds,
    seed: SEED,
    attack,
    pid: side.pid,
    database: side.database,
  });

/** Each attack on every side in turn, each after a quiet phase of its own. */
async function paired(sides: Side[], attacks: Array<[string, number, AttackName]>) {
  const rows: Array<{ side: string; quiet: PhaseRow; attack: PhaseRow }> = [];
  for (const [name, seconds, attack] of attacks) {
    const runs = new Map<string, { quiet: PhaseResult[]; attack: PhaseResult[] }>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const quiet = await phase(side, ATTACK_S);
        const attacked = await phase(side, seconds, attack);
        const run = runs.get(side.name) ?? { quiet: [], attack: [] };
        run.quiet.push(quiet);
        run.attack.push(attacked);
        runs.set(side.name, run);
        const p99 = (r: PhaseResult) => phaseRow('', 0, [r]).live.client_ms.p99;
        process.stderr.write(
          `${side.name} ${name}: quiet p99 ${p99(quiet)} ms, attacked ${p99(attacked)} ms ` +
            `(load ${loadavg()[0].toFixed(1)})\n`,
        );
      }
    }
    for (const side of sides) {
      const run = runs.get(side.name) as { quiet: PhaseResult[]; attack: PhaseResult[] };
      rows.push({
        side: side.name,
        quiet: phaseRow(`quiet before ${name}`, ATTACK_S, run.quiet),
        attack: phaseRow(name, seconds, run.attack),
      });
    }
  }
  return rows;
}

const ratio = (attack: PhaseRow, quiet: PhaseRow, at: 'p50' | 'p99' = 'p99') =>
  Number((attack.live.client_ms[at] / quiet.live.client_ms[at]).toFixed(2));

const verdict = (side: string, quiet: PhaseRow, attack: PhaseRow) => ({
  side,
  phase: attack.phase,
  quiet_p99_ms: quiet.live.client_ms.p99,
  p99_ms: attack.live.client_ms.p99,
  p99_vs_quiet: ratio(attack, quiet),
  // Steadier than p99 on a loaded box, where a phase's p99 is its top one or two calls.
  p50_vs_quiet: ratio(attack, quiet, 'p50'),
  late: attack.live.late,
  s5xx: attack.live.s5xx,
  loop_block_max_ms: attack.loop_block_max_ms,
  rss_max_mb: attack.rss_max_mb,
  memory_at_peak: attack.memory_at_peak,
  attacker: attack.attacker,
});

/** The Postgres side of one checkout: its own database on the test server. */
async function postgresSide(name: string, root: string | undefined, url: string) {
  return seeded(
    name,
    { DATABASE_URL: url, DATABASE_POOL_MAX: '10', SEED_DEMO_DATA: 'true' },
    root,
    new URL(url).pathname.slice(1),
  );
}

async function main() {
  const load = () => loadavg().map((l) => Number(l.toFixed(2)));
  process.stderr.write(
    `bench:abuse seed ${SEED}, ${ATTACK_S} s per attack, load ${load().join(' ')}\n`,
  );
  const loadBefore = load();
  const checkouts: Array<[string, string | undefined]> = [['current', process.env.BENCH_ROOT]];
  if (BASELINE) {
    checkouts.push(['baseline', BASELINE]);
  }
  const rows: Array<{ side: string; quiet: PhaseRow; attack: PhaseRow }> = [];
  if (PGLITE_ATTACKS.length > 0) {
    // The demo set too: the KB and the employee the /chat flood asks as.
    const sides: Side[] = [];
    try {
      for (const [name, root] of checkouts) {
        sides.push(await seeded(name, { DATA_DIR: 'memory://', SEED_DEMO_DATA: 'true' }, root));
      }
      rows.push(...(await paired(sides, PGLITE_ATTACKS)));
    } finally {
      await Promise.all(sides.map((s) => s.stop()));
    }
  }
  const databaseUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (databaseUrl && (!ONLY || ONLY.includes('forgets-ingests'))) {
    const sides: Side[] = [];
    try {
      for (const [name, root] of checkouts) {
        sides.push(await postgresSide(name, root, await databaseFor(databaseUrl, name)));
      }
      const attack: [string, number, AttackName] = [
        'forgets+ingests x50 (postgres, pool 10)',
        ATTACK_S,
        'forgets-ingests',
      ];
      rows.push(...(await paired(sides, [attack])));
    } finally {
      await Promise.all(sides.map((s) => s.stop()));
    }
  }
  const verdicts = rows.map((r) => verdict(r.side, r.quiet, r.attack));
  printJson({
    bench: 'abuse',
    seed: SEED,
    timeout_ms: TIMEOUT_MS,
    rounds: ROUNDS,
    load_before: loadBefore,
    load_after: load(),
    rows,
    verdict: verdicts,
    rss: rssAgainstLine(rows),
    ab: BASELINE
      ? Object.fromEntries(
          [...new Set(verdicts.map((v) => v.phase))].map((phaseName) => [
            phaseName,
            Object.fromEntries(
              verdicts
                .filter((v) => v.phase === phaseName)
                .map((v) => [v.side, { p99: v.p99_vs_quiet, p50: v.p50_vs_quiet }]),
            ),
          ]),
        )
      : undefined,
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
