/**
 * Issue 37's flood bench: steady /context traffic at c=1 (one call after the other) beside
 * one attack at a time, and the same traffic alone first (the quiet baseline). Per phase it
 * prints the live calls' client p50/p99, late (server-measured past `timeout_ms` + 25 ms),
 * partial and 5xx counts, the longest event-loop block as a client sees it (a GET
 * /health/live every 10 ms: its longest answer), the server's peak RSS, and what the attacker
 * got back (status and error code counts).
 *
 *   npm run bench:abuse     # BENCH_ATTACK_S (15), BENCH_SEED (37), BENCH_ROOT (this checkout)
 *
 * Attacks: 100 slow-loris sockets (run past HTTP_BODY_TIMEOUT_MS, 30 s, to see them cut),
 * 32 MB junk NDJSON uploads, MCP 100-call batches, a /chat flood (32 clients), a
 * /health/ready flood (32 clients), adversarial /redact bodies; and with TEST_DATABASE_URL
 * (or DATABASE_URL) 50 concurrent forgets and ingests on Postgres with a pool of 10
 * (`bash scripts/pg-test-server.sh run -- npm run bench:abuse`).
 *
 * The service runs in its own process as `npm start` runs it (`startServerProcess`), on an
 * in-memory store seeded with SGD history; no API keys, no rate limits (the attacker and the
 * live caller share one loopback IP: the bounds under test must hold without them).
 */
import { spawn } from 'node:child_process';
import { Agent, get } from 'node:http';
import { join } from 'node:path';

import { type AttackName, type Statuses } from './support/abuse-attacks';
import { contextShooter, LATE_SLACK_MS, post, scrapeGauges, type Shot } from './support/load-steps';
import { startServerProcess } from './support/server-process';
import { loadSgdConversations, sgdToMessages } from './support/sgd';
import { printJson, summarize } from './support/stats';

const ATTACK_S = Number(process.env.BENCH_ATTACK_S ?? 15);
/** Past the 30 s body deadline, so the slow sockets' answers are seen. */
const LORIS_S = Math.max(ATTACK_S, 36);
const SEED = Number(process.env.BENCH_SEED ?? 37);
const TIMEOUT_MS = 800;
const PROBE_EVERY_MS = 10;

/** Runs one attack in its own process for `seconds`; what the attacker got back. */
function attackProcess(name: AttackName, url: string, seconds: number): Promise<Statuses> {
  const child = spawn(
    process.execPath,
    [
      '-r',
      '@swc-node/register',
      join(__dirname, 'support', 'abuse-attacker.ts'),
      name,
      url,
      String(seconds),
      String(SEED),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as Statuses)
        : reject(new Error(`${name} exited ${code}`)),
    ),
  );
}

/** GET /health/live every 10 ms on its own socket; the longest answer is the longest block. */
function loopProbe(url: string, until: () => boolean): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const samples: number[] = [];
  return (async () => {
    while (!until()) {
      const t0 = performance.now();
      await new Promise<void>((resolve) =>
        get(`${url}/health/live`, { agent }, (res) => {
          res.resume();
          res.on('end', resolve);
        }).on('error', () => resolve()),
      );
      samples.push(performance.now() - t0);
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
    }
    agent.destroy();
    return samples;
  })();
}

/** /context one call at a time until `until()`. */
async function liveCalls(fire: (i: number) => Promise<Shot>, until: () => boolean) {
  const shots: Shot[] = [];
  for (let i = 0; !until(); i++) {
    shots.push(await fire(i).catch(() => ({ clientMs: 0, status: 0 })));
  }
  return shots;
}

async function phase(
  name: string,
  url: string,
  fire: (i: number) => Promise<Shot>,
  seconds: number,
  attack?: AttackName,
) {
  await scrapeGauges(url); // resets the server's event-loop histogram
  const end = performance.now() + seconds * 1000;
  const until = () => performance.now() >= end;
  // Each scrape resets the server's loop histogram, so its maximum is the max over scrapes.
  let rssMaxMb = 0;
  let loopMaxMs = 0;
  const sampler = setInterval(() => {
    void scrapeGauges(url).then(
      (g) => {
        rssMaxMb = Math.max(rssMaxMb, g.rssMb);
        loopMaxMs = Math.max(loopMaxMs, g.eventLoopMaxMs);
      },
      () => undefined,
    );
  }, 1000);
  const [shots, probes, attacker] = await Promise.all([
    liveCalls(fire, until),
    loopProbe(url, until),
    attack && attackProcess(attack, url, seconds),
  ]);
  clearInterval(sampler);
  const gauges = await scrapeGauges(url);
  const ok = shots.filter((s) => s.status === 200);
  const row = {
    phase: name,
    seconds,
    live: {
      calls: shots.length,
      client_ms: summarize(shots.map((s) => s.clientMs)),
      late: ok.filter((s) => (s.serverMs ?? 0) > (s.timeoutMs ?? 0) + LATE_SLACK_MS).length,
      partial: ok.filter((s) => s.partial).length,
      shed: ok.filter((s) => s.shed).length,
      non_200: shots.length - ok.length,
      s5xx: shots.filter((s) => s.status >= 500).length,
    },
    loop_block_max_ms: Number(Math.max(0, ...probes).toFixed(1)),
    probe_ms: summarize(probes),
    server_loop_max_ms: Math.max(loopMaxMs, gauges.eventLoopMaxMs),
    rss_max_mb: Math.max(rssMaxMb, gauges.rssMb),
    attacker,
  };
  process.stderr.write(`${name}: ${JSON.stringify(row.live)} block ${row.loop_block_max_ms} ms\n`);
  return row;
}

async function seeded(env: Record<string, string>) {
  const server = await startServerProcess(env, process.env.BENCH_ROOT);
  try {
    const messages = sgdToMessages(loadSgdConversations(24), 4);
    await post(`${server.url}/ingest/conversations`, messages);
    const contacts = [...new Set(messages.map((m) => m.contact_uid))];
    const fire = contextShooter(server.url, contacts, TIMEOUT_MS, `${SEED}`);
    for (let i = 0; i < 40; i++) {
      await fire(i); // warm-up
    }
    return { server, fire };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

async function main() {
  process.stderr.write(`bench:abuse seed ${SEED}, ${ATTACK_S} s per attack\n`);
  const rows = [];
  // The demo set too: the KB and the employee the /chat flood asks as.
  const { server, fire } = await seeded({ DATA_DIR: 'memory://', SEED_DEMO_DATA: 'true' });
  try {
    const attacks: Array<[string, number, AttackName]> = [
      ['slow-loris x100', LORIS_S, 'slow-loris'],
      ['junk ndjson 32 MB', ATTACK_S, 'junk-ndjson'],
      ['mcp 100-call batches', ATTACK_S, 'mcp-batches'],
      ['chat flood x32', ATTACK_S, 'chat-flood'],
      ['health/ready flood x32', ATTACK_S, 'ready-flood'],
      ['adversarial redact 60 KB', ATTACK_S, 'adversarial-redact'],
    ];
    rows.push(await phase('quiet', server.url, fire, ATTACK_S));
    for (const [name, seconds, attack] of attacks) {
      rows.push(await phase(name, server.url, fire, seconds, attack));
    }
  } finally {
    await server.stop();
  }
  const databaseUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (databaseUrl) {
    const pg = await seeded({
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_MAX: '10',
      SEED_DEMO_DATA: 'true',
    });
    try {
      rows.push(await phase('quiet (postgres)', pg.server.url, pg.fire, ATTACK_S));
      rows.push(
        await phase(
          'forgets+ingests x50 (postgres, pool 10)',
          pg.server.url,
          pg.fire,
          ATTACK_S,
          'forgets-ingests',
        ),
      );
    } finally {
      await pg.server.stop();
    }
  }
  const quiet = rows[0].live.client_ms.p99;
  printJson({
    bench: 'abuse',
    seed: SEED,
    timeout_ms: TIMEOUT_MS,
    rows,
    verdict: rows.map((r) => ({
      phase: r.phase,
      p99_vs_quiet: Number((r.live.client_ms.p99 / quiet).toFixed(2)),
      late: r.live.late,
      s5xx: r.live.s5xx,
      loop_block_max_ms: r.loop_block_max_ms,
      rss_max_mb: r.rss_max_mb,
    })),
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
