import { type ContextBundle } from '../../src/context/context.dto';
import { JsonClient } from './http-client';
import { loadSgdSlotFacts } from './sgd';
import { summarize } from './stats';

/** One /context request's outcome as the load client saw it. */
export interface Shot {
  clientMs: number;
  status: number;
  serverMs?: number;
  timeoutMs?: number;
  partial?: boolean;
  shed?: boolean;
  /** The server's per-stage milliseconds (`meta.stages`). */
  stages?: Record<string, number>;
}

/** What the server reports on /metrics that a step cares about. */
export interface ServerGauges {
  eventLoopP50Ms: number;
  eventLoopP99Ms: number;
  eventLoopMaxMs: number;
  rssMb: number;
  heapMb: number;
}

/** Slack the acceptance allows past `timeout_ms`, measured by the server (`meta.elapsed_ms`). */
export const LATE_SLACK_MS = 25;

/**
 * Open loop: requests leave at `rate` per second whether or not earlier ones came back (a
 * closed loop slows down with the server and hides queueing), for `seconds`.
 */
export async function openLoop(
  rate: number,
  seconds: number,
  fire: (i: number) => Promise<Shot>,
): Promise<{ shots: Shot[]; wallMs: number }> {
  const shots: Promise<Shot>[] = [];
  const started = performance.now();
  const total = Math.max(1, Math.round(rate * seconds));
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    shots.push(fire(i));
  }
  const settled = await Promise.all(shots);
  return { shots: settled, wallMs: performance.now() - started };
}

/** The per-step row the load suite prints. */
export function stepReport(
  offeredRps: number,
  run: { shots: Shot[]; wallMs: number },
  gauges: ServerGauges,
) {
  const { shots } = run;
  const ok = shots.filter((s) => s.status === 200);
  const late = ok.filter((s) => (s.serverMs ?? 0) > (s.timeoutMs ?? 0) + LATE_SLACK_MS);
  return {
    offered_rps: Number(offeredRps.toFixed(1)),
    achieved_rps: Number((ok.length / (run.wallMs / 1000)).toFixed(1)),
    requests: shots.length,
    client_ms: summarize(shots.map((s) => s.clientMs)),
    server_ms: summarize(ok.map((s) => s.serverMs ?? 0)),
    partial_rate: Number((ok.filter((s) => s.partial).length / Math.max(1, ok.length)).toFixed(3)),
    shed: ok.filter((s) => s.shed).length,
    late: late.length,
    non_200: shots.length - ok.length,
    event_loop_ms: {
      p50: gauges.eventLoopP50Ms,
      p99: gauges.eventLoopP99Ms,
      max: gauges.eventLoopMaxMs,
    },
    rss_mb: gauges.rssMb,
  };
}

/** Reads the event-loop and memory gauges (prom-client resets the loop histogram per scrape). */
export async function scrapeGauges(url: string): Promise<ServerGauges> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (name: string) =>
    Number(new RegExp(`^${name} ([0-9.e+-]+)`, 'm').exec(text)?.[1] ?? NaN);
  const ms = (name: string) => Number((value(name) * 1000).toFixed(1));
  return {
    eventLoopP50Ms: ms('context_bridge_nodejs_eventloop_lag_p50_seconds'),
    eventLoopP99Ms: ms('context_bridge_nodejs_eventloop_lag_p99_seconds'),
    eventLoopMaxMs: ms('context_bridge_nodejs_eventloop_lag_max_seconds'),
    rssMb: Math.round(value('context_bridge_process_resident_memory_bytes') / 1e6),
    heapMb: Math.round(value('context_bridge_nodejs_heap_size_used_bytes') / 1e6),
  };
}

/**
 * A /context caller: distinct slot-fact questions (the query-embedding cache must not flatter
 * the numbers) spread over `contacts`, 64 live calls for the coalescer.
 */
export function contextShooter(
  url: string,
  contacts: string[],
  timeoutMs: number,
  run: string,
): (i: number) => Promise<Shot> {
  const facts = loadSgdSlotFacts();
  let n = 0;
  const client = new JsonClient(url, 1024);
  return async (i) => {
    const fact = facts[(n++ * 7919) % facts.length];
    const t0 = performance.now();
    const response = await client.post<ContextBundle>('/context', {
      transcript: `what was the ${fact.slot_description.toLowerCase()} again (${run}-${n})`,
      contact_uid: contacts[i % contacts.length],
      call_id: `load-${run}-${i % 64}`,
      timeout_ms: timeoutMs,
    });
    const clientMs = performance.now() - t0;
    if (response.status !== 200) {
      return { clientMs, status: response.status };
    }
    const bundle = response.body;
    return {
      clientMs,
      status: 200,
      serverMs: bundle.meta.elapsed_ms,
      timeoutMs: bundle.meta.timeout_ms,
      partial: bundle.meta.partial,
      shed: (bundle.contact as { error?: unknown }).error === 'overloaded',
      stages: bundle.meta.stages,
    };
  };
}

/** POSTs JSON and returns the parsed answer; anything but 2xx throws. */
export async function post(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  }
  return response.json();
}
