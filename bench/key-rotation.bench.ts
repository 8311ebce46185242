/**
 * How long a key removed from API_KEYS_FILE keeps working (issue 39: "within 1 s"): the time
 * from the new file's rename to the first request the service refuses, measured on the
 * service's own key handling (ApiKeyService, as the guard asks it) with the production
 * settings (fs.watch + 500 ms poll), against the poll-only fallback (a filesystem without
 * inotify) as the baseline of the same run. Writes land at seeded random offsets so they do
 * not line up with the poll.
 *
 *   npm run bench:key-rotation [-- --rounds 40 --seed 39]
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { Logger } from '@nestjs/common';

import { ApiKeyService, KEYS_FILE_FOLLOW } from '../src/auth/api-key.service';
import { StderrLogger } from '../src/common/stderr-logger';
import { generateApiKey, parseApiKeys } from '../src/config/api-key-entries';
import { type AppConfig } from '../src/config/app-config';
import { prng } from './support/prng';
import { printJson, summarize } from './support/stats';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '40' }, seed: { type: 'string', default: '39' } },
});
const ROUNDS = Number(values.rounds);
const SEED = Number(values.seed);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function measure(watch: boolean, random: () => number): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-keys-'));
  const path = join(dir, 'api-keys');
  const write = (line: string) => {
    writeFileSync(`${path}.next`, `${line}\n`);
    renameSync(`${path}.next`, path);
  };
  let current = generateApiKey('rotating');
  write(current.line);
  // The follower's settings are read when it starts: the baseline turns the watch off.
  KEYS_FILE_FOLLOW.watch = watch;
  const config = {
    role: 'server',
    security: {
      apiKeys: parseApiKeys(current.line, 'bench').keys,
      apiKeysFile: { path, fixedKeys: [] },
    },
    adapters: { vapiSecrets: [] },
  } as unknown as AppConfig;
  const sut = new ApiKeyService(config);
  sut.onApplicationBootstrap();
  const refused = (key: string) => sut.identify({ headers: { 'x-api-key': key } }).kind !== 'key';
  const samples: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      await sleep(random() * 500);
      const revoked = current;
      current = generateApiKey('rotating');
      const started = performance.now();
      write(current.line);
      while (!refused(revoked.key)) {
        await sleep(1); // a request every millisecond, as a busy caller would send them
      }
      samples.push(performance.now() - started);
    }
  } finally {
    await sut.onModuleDestroy();
    rmSync(dir, { recursive: true, force: true });
  }
  return samples;
}

async function main(): Promise<void> {
  // stdout is the JSON: the service's reload lines go to stderr, warnings and errors only.
  Logger.overrideLogger(new StderrLogger({ logLevels: ['error', 'warn'] }));
  process.stderr.write(`key-rotation bench: ${ROUNDS} rounds per mode, seed ${SEED}\n`);
  const started = performance.now();
  const watched = await measure(true, prng(SEED));
  const pollOnly = await measure(false, prng(SEED));
  printJson({
    bench: 'key-rotation',
    seed: SEED,
    rounds: ROUNDS,
    load_average: loadavg().map((l) => Math.round(l * 100) / 100),
    revoked_key_refused_after_ms: {
      watch_and_poll: summarize(watched),
      baseline_poll_only: summarize(pollOnly),
    },
    within_1s: {
      watch_and_poll: watched.filter((ms) => ms <= 1000).length / watched.length,
      baseline_poll_only: pollOnly.filter((ms) => ms <= 1000).length / pollOnly.length,
    },
    throughput_rotations_per_s:
      Math.round(((2 * ROUNDS) / ((performance.now() - started) / 1000)) * 100) / 100,
  });
}

void main();
