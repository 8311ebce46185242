/**
 * bench:abuse's event-loop probe in its own process: a GET /health/live every 10 ms on one
 * keep-alive socket for `seconds`. Apart from the live caller (whose bundles it would wait
 * behind) and the attacker, its answers time the server, not the bench. Prints each answer's
 * milliseconds and its own longest loop delay (a slow answer while that is short waited in
 * the server or the kernel, not here) as JSON on stdout.
 *
 *   node -r @swc-node/register bench/support/abuse-probe.ts <url> <seconds>
 */
import { Agent, get } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const PROBE_EVERY_MS = 10;

async function main() {
  const [url, seconds] = process.argv.slice(2);
  const end = performance.now() + Number(seconds) * 1000;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const samples: number[] = [];
  while (performance.now() < end) {
    const t0 = performance.now();
    await new Promise<void>((resolve) =>
      get(`${url}/health/live`, { agent }, (res) => {
        res.resume();
        res.on('end', resolve);
      }).on('error', () => resolve()),
    );
    samples.push(Number((performance.now() - t0).toFixed(2)));
    await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
  }
  loop.disable();
  agent.destroy();
  process.stdout.write(JSON.stringify({ samples, loop_max_ms: loop.max / 1e6 }));
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
