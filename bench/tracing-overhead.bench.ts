/**
 * What OpenTelemetry tracing costs /context: two server processes on the same demo store, one
 * with tracing off (the default) and one exporting every span (always-on sampling, OTLP
 * http/protobuf) to a loopback sink, measured in interleaved rounds at concurrency 1 and 8,
 * so the box's noise falls on both alike. Requests differ in text, so every one embeds.
 *
 *   npm run bench:tracing   # BENCH_ROUNDS (3), BENCH_REQUESTS (c=1: 100, c=8: 4× that)
 *
 * The sink shares the box's cores with the servers (a real collector would not), so the
 * "on" figures include the cost of receiving the spans too.
 */
import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';

import { DEMO_ALICE_PHRASES } from './support/demo-phrases';
import { JsonClient } from './support/http-client';
import { interleavedRounds, throughputRatio } from './support/interleaved-rounds';
import { startServerProcess } from './support/server-process';
import { printJson } from './support/stats';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100);
const LEVELS = [1, 8];

/** An OTLP/HTTP endpoint that accepts and drops every export, counting the bytes. */
async function startSink(): Promise<{ url: string; bytes: () => number; close(): void }> {
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => response.writeHead(200).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bytes: () => bytes,
    close: () => server.close(),
  };
}

async function main() {
  const sink = await startSink();
  const common = { DATA_DIR: 'memory://', SEED_DEMO_DATA: 'true' };
  const servers = {
    off: await startServerProcess(common),
    on: await startServerProcess({
      ...common,
      OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
      OTEL_TRACES_SAMPLER: 'always_on',
    }),
  };
  const clients = { off: new JsonClient(servers.off.url), on: new JsonClient(servers.on.url) };
  let seq = 0;
  let results: Awaited<ReturnType<typeof interleavedRounds>>;
  try {
    results = await interleavedRounds({
      modes: ['off', 'on'] as const,
      levels: LEVELS,
      rounds: ROUNDS,
      requests: REQUESTS,
      request: async (mode) => {
        const i = seq++;
        const { status, body } = await clients[mode].post<{ meta: { partial: boolean } }>(
          '/context',
          {
            transcript: `${DEMO_ALICE_PHRASES[i % DEMO_ALICE_PHRASES.length]} (ref ${i})`,
            contact_uid: 'ctc_demo_alice',
          },
        );
        if (status !== 200) {
          throw new Error(`HTTP ${status}`);
        }
        return body.meta.partial;
      },
    });
  } finally {
    await Promise.all([servers.off.stop(), servers.on.stop()]);
    sink.close();
  }
  // After the servers stopped: their last span exports are counted too.
  printJson({
    bench: 'tracing-overhead',
    rounds: ROUNDS,
    results,
    throughput_on_over_off: throughputRatio(results, 'on', 'off', LEVELS),
    exported_kb: Math.round(sink.bytes() / 1024),
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
