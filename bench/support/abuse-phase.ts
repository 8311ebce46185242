/**
 * One bench:abuse phase: steady /context at c=1 beside one attack (or none: quiet), with an
 * event-loop probe and the server's gauges sampled every second.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

import { type AttackName, type Statuses } from './abuse-attacks';
import { cpuSnapshot, type CpuSplit, cpuSplit } from './abuse-cpu';
import { type MemorySample, peakOf, scrapeMemory } from './abuse-memory';
import { stageBreakdown } from './abuse-stages';
import { LATE_SLACK_MS, scrapeGauges, type Shot } from './load-steps';
import { summarize } from './stats';

/** What the attacker got back, and the cores its own process used. */
interface AttackerReport {
  statuses: Statuses;
  cores: number;
}

/** Runs one attack in its own process for `seconds`. */
const attackProcess = (name: AttackName, url: string, seconds: number, seed: number) =>
  child<AttackerReport>('abuse-attacker.ts', [name, url, String(seconds), String(seed)]);

/** The probe process's answers ({@link PROBE_SCRIPT}) and its own longest loop delay. */
interface ProbeReport {
  samples: number[];
  loop_max_ms: number;
}

/** Runs `script` with `args` in its own process and parses what it prints. */
function child<T>(script: string, args: string[]): Promise<T> {
  const proc = spawn(
    process.execPath,
    ['-r', '@swc-node/register', join(__dirname, script), ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  return new Promise((resolve, reject) =>
    proc.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`${script} exited ${code}`)),
    ),
  );
}

/** GET /health/live every 10 ms from its own process; the longest answer is the longest block. */
const PROBE_SCRIPT = 'abuse-probe.ts';

/** /context one call at a time until `until()`. */
async function liveCalls(fire: (i: number) => Promise<Shot>, until: () => boolean) {
  const shots: Shot[] = [];
  for (let i = 0; !until(); i++) {
    shots.push(await fire(i).catch(() => ({ clientMs: 0, status: 0 })));
  }
  return shots;
}

/** What one phase measured; `shots` (every live call) lets rounds be pooled. */
export interface PhaseResult {
  shots: Shot[];
  probes: number[];
  serverLoopMaxMs: number;
  /**
   * The probe process's own longest event-loop delay: a slow /health/live answer while this
   * and the server's loop delay were short waited in the kernel or the scheduler.
   */
  probeLoopMaxMs: number;
  rssMaxMb: number;
  /** The memory breakdown at the phase's RSS peak. */
  memoryAtPeak?: MemorySample;
  /** Cores used by the server's threads and its database's backends during the phase. */
  cpu?: CpuSplit;
  /** The bench's own cores (the live caller), and the attacker process's. */
  clientCores?: number;
  attackerCores?: number;
  attacker?: Statuses;
}

export async function runPhase(options: {
  url: string;
  fire: (i: number) => Promise<Shot>;
  seconds: number;
  seed: number;
  attack?: AttackName;
  /** The server's process id and its Postgres database (for the CPU split). */
  pid?: number;
  database?: string;
}): Promise<PhaseResult> {
  const { url, fire, seconds, seed, attack, pid, database } = options;
  await scrapeGauges(url); // resets the server's event-loop histogram
  const cpuBefore = pid === undefined ? undefined : cpuSnapshot(pid, database);
  const clientCpu = process.cpuUsage();
  const started = performance.now();
  const end = performance.now() + seconds * 1000;
  const until = () => performance.now() >= end;
  // Each scrape resets the server's loop histogram, so its maximum is the max over scrapes.
  let rssMaxMb = 0;
  let loopMaxMs = 0;
  let memoryAtPeak: MemorySample | undefined;
  const sampler = setInterval(() => {
    void scrapeMemory(url).then(
      (m) => (memoryAtPeak = peakOf(memoryAtPeak, m)),
      () => undefined,
    );
    void scrapeGauges(url).then(
      (g) => {
        rssMaxMb = Math.max(rssMaxMb, g.rssMb);
        loopMaxMs = Math.max(loopMaxMs, g.eventLoopMaxMs);
      },
      () => undefined,
    );
  }, 1000);
  const [shots, probe, attacked] = await Promise.all([
    liveCalls(fire, until),
    child<ProbeReport>(PROBE_SCRIPT, [url, String(seconds)]),
    attack && attackProcess(attack, url, seconds, seed),
  ]);
  clearInterval(sampler);
  const client = process.cpuUsage(clientCpu);
  const clientCores = (client.user + client.system) / 1000 / (performance.now() - started);
  const cpu =
    pid === undefined || !cpuBefore
      ? undefined
      : cpuSplit(pid, cpuBefore, cpuSnapshot(pid, database));
  const gauges = await scrapeGauges(url);
  return {
    cpu,
    shots,
    probes: probe.samples,
    serverLoopMaxMs: Math.max(loopMaxMs, gauges.eventLoopMaxMs),
    probeLoopMaxMs: Number(probe.loop_max_ms.toFixed(1)),
    rssMaxMb: Math.max(rssMaxMb, gauges.rssMb),
    memoryAtPeak,
    clientCores: Number(clientCores.toFixed(3)),
    attackerCores: attacked?.cores,
    attacker: attacked?.statuses,
  };
}

/** Adds `b`'s counts into `a`. */
const addStatuses = (a: Statuses, b: Statuses = {}) =>
  Object.entries(b).forEach(([key, n]) => (a[key] = (a[key] ?? 0) + n));

/** One printed row from one or more phases of the same kind (rounds pooled). */
export function phaseRow(name: string, seconds: number, phases: PhaseResult[]) {
  const shots = phases.flatMap((p) => p.shots);
  const probes = phases.flatMap((p) => p.probes);
  const ok = shots.filter((s) => s.status === 200);
  const attackers = phases.filter((p) => p.attacker);
  let attacker: Statuses | undefined;
  if (attackers.length > 0) {
    attacker = {};
    attackers.forEach((p) => addStatuses(attacker as Statuses, p.attacker));
  }
  return {
    phase: name,
    seconds: seconds * phases.length,
    live: {
      calls: shots.length,
      client_ms: summarize(shots.map((s) => s.clientMs)),
      late: ok.filter((s) => (s.serverMs ?? 0) > (s.timeoutMs ?? 0) + LATE_SLACK_MS).length,
      partial: ok.filter((s) => s.partial).length,
      shed: ok.filter((s) => s.shed).length,
      non_200: shots.length - ok.length,
      s5xx: shots.filter((s) => s.status >= 500).length,
      stages_ms: stageBreakdown(shots),
    },
    loop_block_max_ms: Number(Math.max(0, ...probes).toFixed(1)),
    probe_ms: summarize(probes),
    server_loop_max_ms: Math.max(...phases.map((p) => p.serverLoopMaxMs)),
    probe_loop_max_ms: Math.max(...phases.map((p) => p.probeLoopMaxMs)),
    rss_max_mb: Math.max(...phases.map((p) => p.rssMaxMb)),
    cpu: phases.map((p) => ({
      ...p.cpu,
      bench_client: p.clientCores,
      attacker: p.attackerCores,
    })),
    memory_at_peak: phases
      .map((p) => p.memoryAtPeak)
      .reduce<MemorySample | undefined>((a, b) => (b ? peakOf(a, b) : a), undefined),
    attacker,
  };
}

export type PhaseRow = ReturnType<typeof phaseRow>;
