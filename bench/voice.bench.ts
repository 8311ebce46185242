/**
 * Voice turns as a speech engine emits them, on the SGD dialogues (8 conversations = one
 * contact): each turn is a slot question, sent as interim hypotheses growing word by word every
 * 150–250 ms (jittered, seeded), then the final after one more such gap. Per concurrency level
 * (calls at once) and mode (`final_only`: the same timing, finals only; `speculative`: interims
 * too, as HTTP requests; `stream`: the same events on one WebSocket per call), it prints end-of-turn → bundle latency at the client (p50/p95/p99), the share of
 * turns served from speculation, late (past the deadline) and partial counts, server CPU per
 * turn, and the evidence hit rate (the answer's value in the first five excerpts). Each mode
 * has its own server process and store copy (neither warms the other's caches); the modes
 * alternate per level. Then the first /context of a call, cold against prefetched
 * (`POST /calls` one ring before), each against the call's second turn.
 *
 *   npm run bench:voice   # BENCH_VOICE_CONCURRENCY (1,4,16), BENCH_VOICE_TURNS per call (3),
 *                         # BENCH_VOICE_C1_CALLS (4), BENCH_VOICE_PREFETCH_CALLS (20), BENCH_SEED (41)
 *
 * With BENCH_BASELINE_ROOT (another checkout with its node_modules, e.g. a worktree of an older
 * commit) a third mode, `speculative_baseline`, runs that checkout's server in the same rounds,
 * and `comparison` sets it beside this one per level (the modes' order reverses every level).
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

import { EmbeddingService } from '@app/embedding';
import { Redactor } from '@app/redaction';

import { type ContextBundle, type HistoricalExcerpt } from '../src/context/context.dto';
import { IngestService } from '../src/ingest/ingest.service';
import { benchContext } from './support/app-context';
import { JsonClient } from './support/http-client';
import { prng } from './support/prng';
import { cpuPerRequest, cpuSnapshot } from './support/proc-cpu';
import { startServerProcess } from './support/server-process';
import { loadSgdConversations, loadSgdSlotFacts, sgdToMessages } from './support/sgd';
import { buildSlotQuestions } from './support/sgd-questions';
import { printJson, summarize } from './support/stats';
import { compareModes, type Mode, type VoiceLevel } from './support/voice-compare';
import { replayStreamCall, type TurnResult } from './support/voice-stream';

const GROUP = 8;
const K = 5;
const BASELINE = process.env.BENCH_BASELINE_ROOT;

const MODES: Mode[] = [
  'final_only',
  'speculative',
  'stream',
  ...(BASELINE ? ['speculative_baseline' as const] : []),
];
interface Turn {
  q: string;
  value: string;
  contact: string;
}

async function main() {
  const seed = Number(process.env.BENCH_SEED ?? 41);
  process.stderr.write(`bench:voice seed ${seed}\n`);
  const conversations = loadSgdConversations();
  const env = { DATA_DIR: `bench/.cache/sgd-g${GROUP}-${conversations.length}` };
  const contactOf = new Map(
    conversations.map((c, i) => [
      c.conversation_id,
      `contact-g${String(Math.floor(i / GROUP)).padStart(4, '0')}`,
    ]),
  );
  // Ingest (cached and idempotent: a re-run skips it), then the questions.
  const app = await benchContext({ ...env, LOG_LEVEL: 'error', EMBEDDING_WORKERS: '2' });
  try {
    await app.get(EmbeddingService).embedQuery('warm');
    await app.get(IngestService).ingestConversations(sgdToMessages(conversations, GROUP));
  } finally {
    await app.close();
  }
  const redactor = new Redactor({});
  const questions = buildSlotQuestions(
    loadSgdSlotFacts(),
    new Set(contactOf.keys()),
    1200,
    (value) => redactor.redact(value).text !== value,
  );
  const byContact = new Map<string, Turn[]>();
  for (const q of questions) {
    const contact = contactOf.get(q.conversation_id) as string;
    byContact.set(contact, [
      ...(byContact.get(contact) ?? []),
      { q: q.question, value: q.value, contact },
    ]);
  }
  const turnsPerCall = Number(process.env.BENCH_VOICE_TURNS ?? 3);
  const levels = (process.env.BENCH_VOICE_CONCURRENCY ?? '1,4,16').split(',').map(Number);
  const c1Calls = Number(process.env.BENCH_VOICE_C1_CALLS ?? 4);
  const calls = [...byContact.values()]
    .filter((t) => t.length >= turnsPerCall)
    .slice(0, Math.max(c1Calls, ...levels));
  // The first-turn comparison runs on contacts no level touched (cold caches).
  const fresh = [...byContact.values()]
    .filter((t) => t.length >= 2 && !calls.includes(t))
    .slice(0, 2 * PREFETCH_CALLS);
  // One server per mode, both up for the whole run, and the modes alternate per level: the
  // background load of a shared box then weighs on both alike. Each has its own copy of the
  // store: ended calls join history, which must not reach the cached store or the other mode.
  const servers = await Promise.all(MODES.map((mode) => startMode(env.DATA_DIR, mode)));
  const results: Record<string, unknown> = {};
  const load = { before: loadavg().map((l) => Number(l.toFixed(2))), after: [] as number[] };
  try {
    for (const [l, c] of levels.entries()) {
      const count = c === 1 ? c1Calls : c;
      const chosen = calls.slice(0, count).map((t) => t.slice(0, turnsPerCall));
      const order = [...MODES.keys()];
      for (const m of l % 2 ? order.reverse() : order) {
        const mode = MODES[m];
        results[`${mode}_c${c}`] = await replayLevel(servers[m], mode, c, chosen, prng(seed + c));
      }
    }
    load.after = loadavg().map((l) => Number(l.toFixed(2)));
    if (PREFETCH_CALLS > 0) {
      results.first_turn = await firstTurns(servers[0].client, fresh);
    }
  } finally {
    for (const server of servers) {
      server.client.close();
      server.interims.close();
      await server.stop();
      rmSync(server.dataDir, { recursive: true, force: true });
    }
  }
  const comparison = Object.fromEntries(
    levels.map((c) => [`c${c}`, compareModes(results as Record<string, VoiceLevel>, MODES, c)]),
  );
  printJson({
    bench: 'voice',
    seed,
    turns_per_call: turnsPerCall,
    levels,
    load,
    results,
    comparison,
  });
}

/** Calls per group of the first-turn comparison (cold, prefetched). */
const PREFETCH_CALLS = Number(process.env.BENCH_VOICE_PREFETCH_CALLS ?? 20);
/** How long the phone rings between `POST /calls` and the first turn. */
const RING_MS = 1000;

/**
 * The first /context of a call, cold (no prefetch) or after `POST /calls` while it rang,
 * against the call's second turn (warm); one call at a time, each on a contact no other
 * phase touched, so no cache is shared between the groups.
 */
async function firstTurns(client: JsonClient, calls: Turn[][]) {
  const groups = { cold: calls.slice(0, PREFETCH_CALLS), prefetched: calls.slice(PREFETCH_CALLS) };
  const out: Record<string, unknown> = {};
  for (const [name, group] of Object.entries(groups)) {
    const first: number[] = [];
    const warm: number[] = [];
    for (const [i, turns] of group.entries()) {
      const callId = `first-${name}-${i}`;
      if (name === 'prefetched') {
        await client.post('/calls', { call_id: callId, contact_uid: turns[0].contact });
        await sleep(RING_MS);
      }
      for (const [n, turn] of turns.slice(0, 2).entries()) {
        const t0 = performance.now();
        await client.post('/context', {
          transcript: turn.q,
          contact_uid: turn.contact,
          call_id: callId,
        });
        (n === 0 ? first : warm).push(performance.now() - t0);
      }
      await client.post('/calls/end', { call_id: callId, contact_uid: turns[0].contact });
    }
    out[name] = { first_turn_ms: summarize(first), second_turn_ms: summarize(warm) };
  }
  return out;
}

/** Speculative searches the server started so far (its Prometheus counter). */
async function speculations(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = /^context_bridge_speculation_total\{outcome="started"\} (\d+)/m.exec(text);
  return line ? Number(line[1]) : 0;
}

type ModeServer = Awaited<ReturnType<typeof startServerProcess>> & {
  client: JsonClient;
  /** Interims go on their own sockets, as an engine's stream does: no final queues behind them. */
  interims: JsonClient;
  dataDir: string;
};

async function startMode(dataDir: string, mode: Mode): Promise<ModeServer> {
  const copy = mkdtempSync(join(tmpdir(), 'bench-voice-'));
  cpSync(dataDir, copy, { recursive: true });
  const server = await startServerProcess(
    {
      DATA_DIR: copy,
      SPECULATION: String(mode !== 'final_only'),
      // Interims count against the per-caller rate limit like any request (16 calls send ~80/s).
      RATE_LIMIT_PER_IP_PER_MINUTE: '0',
    },
    mode === 'speculative_baseline' ? BASELINE : undefined,
  );
  const interims = new JsonClient(server.url);
  return { ...server, client: new JsonClient(server.url), interims, dataDir: copy };
}

/** `c` calls at once: each worker replays its share of the calls one after another. */
async function replayLevel(
  server: ModeServer,
  mode: Mode,
  c: number,
  chosen: Turn[][],
  random: () => number,
) {
  const before = cpuSnapshot(server.pid);
  const started = await speculations(server.url);
  const workers = Array.from({ length: c }, async (_, w) => {
    const mine = [];
    for (let i = w; i < chosen.length; i += c) {
      const callId = `${mode}-c${c}-${i}`;
      const turns = chosen[i];
      mine.push(
        ...(mode === 'stream'
          ? await replayStreamCall(
              server.url,
              callId,
              turns,
              () => sleep(gap(random)),
              (n, excerpts) => hits(turns[n], excerpts),
            )
          : await replayCall(server, mode, callId, turns, random)),
      );
    }
    return mine;
  });
  const turns = (await Promise.all(workers)).flat();
  const cpu = cpuPerRequest(server.pid, before, turns.length);
  const searched = (await speculations(server.url)) - started;
  const served = turns.filter((t) => t.speculative);
  return {
    turns: turns.length,
    latency_ms: summarize(turns.map((t) => t.ms)),
    served_from_speculation: Number((served.length / turns.length).toFixed(3)),
    ...(mode === 'stream'
      ? { confirmed: Number((turns.filter((t) => t.confirmed).length / turns.length).toFixed(3)) }
      : {}),
    speculative_latency_ms: served.length ? summarize(served.map((t) => t.ms)) : null,
    // The server's own part of a served turn (arrival to bundle built): the rest is transport.
    speculative_server_ms: served.length ? summarize(served.map((t) => t.serverMs)) : null,
    speculative_server_stages_p50: served.length ? stageMedians(served) : null,
    speculative_searches_per_turn: Number((searched / turns.length).toFixed(2)),
    late: turns.filter((t) => t.late).length,
    partial: turns.filter((t) => t.partial).length,
    hit_rate: Number((turns.filter((t) => t.hit).length / turns.length).toFixed(3)),
    cpu_ms_per_turn: cpu.server_total,
  };
}

/** Each server stage's median over `turns` (a stage a turn lacks counts as 0 there). */
function stageMedians(turns: TurnResult[]): Record<string, number> {
  const names = new Set(turns.flatMap((t) => Object.keys(t.stages ?? {})));
  return Object.fromEntries(
    [...names].map((name) => [name, summarize(turns.map((t) => t.stages?.[name] ?? 0)).p50]),
  );
}

/** The answer's value is in the first {@link K} excerpts. */
const hits = (turn: Turn, excerpts: HistoricalExcerpt[]) =>
  excerpts.slice(0, K).some((e) => e.content.includes(turn.value));
const gap = (random: () => number) => 150 + random() * 100;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function replayCall(
  { client, interims }: Pick<ModeServer, 'client' | 'interims'>,
  mode: Mode,
  callId: string,
  turns: Turn[],
  random: () => number,
) {
  const out: TurnResult[] = [];
  for (const turn of turns) {
    const words = turn.q.split(/\s+/);
    for (let n = 1; n <= words.length; n++) {
      await sleep(gap(random));
      if (mode !== 'final_only') {
        // An engine does not wait for the 202; neither does this replay.
        void interims.post('/context', {
          transcript: words.slice(0, n).join(' '),
          contact_uid: turn.contact,
          call_id: callId,
          is_final: false,
        });
      }
    }
    await sleep(gap(random));
    const t0 = performance.now();
    const { body } = await client.post<ContextBundle>('/context', {
      transcript: turn.q,
      contact_uid: turn.contact,
      call_id: callId,
    });
    const ms = performance.now() - t0;
    out.push({
      ms,
      serverMs: body.meta.elapsed_ms,
      stages: body.meta.stages,
      speculative: body.meta.speculative,
      late: ms > body.meta.timeout_ms,
      partial: body.meta.partial,
      hit: hits(turn, body.historical_excerpts),
    });
  }
  await client.post('/calls/end', { call_id: callId, contact_uid: turns[0].contact });
  return out;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
