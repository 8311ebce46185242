import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Database } from '@app/database';

import { type FakeOpenAi, startFakeOpenAi } from './fakes/openai-server';
import { seedDataDir } from './support/pglite-data-dir';

/**
 * The real CLI (`bin/context-bridge.js`) on a streamed NDJSON export: killed with SIGKILL
 * after a few committed batches and run again, it must end with exactly the windows and
 * messages of one uninterrupted run.
 */
describe('npx context-bridge ingest (bulk, resumable)', () => {
  const DIMENSION = 64;
  let root: string;
  let file: string;
  let openai: FakeOpenAi;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'cb-bulk-'));
    openai = await startFakeOpenAi();
    // 60 conversations of 14 messages, interleaved in pairs so some span two batches.
    const lines: string[] = [];
    for (let c = 0; c < 60; c += 2) {
      for (let turn = 0; turn < 14; turn++) {
        for (const conversation of [c, c + 1]) {
          lines.push(
            JSON.stringify({
              conversation_uid: `conv-${conversation}`,
              contact_uid: `ctc-${conversation % 7}`,
              location_uid: `loc-${conversation % 3}`,
              channel: 'sms',
              occurred_at: new Date(Date.UTC(2025, 0, 1 + conversation, 9, turn)).toISOString(),
              sender: turn % 2 === 0 ? 'customer' : 'agent',
              text: `Conversation ${conversation}, turn ${turn}: order ${conversation * 100 + turn} is on its way.`,
            }),
          );
        }
      }
      if (c === 20) {
        lines.push('{"conversation_uid": "broken"'); // one bad line, reported by index
      }
    }
    file = join(root, 'export.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
  });
  afterAll(async () => {
    await openai.close();
    rmSync(root, { recursive: true, force: true });
  });

  const cli = (dataDir: string, ...args: string[]) =>
    spawn(process.execPath, ['bin/context-bridge.js', 'ingest', 'conversations', file, ...args], {
      cwd: join(__dirname, '..'),
      env: {
        PATH: process.env.PATH,
        DATA_DIR: dataDir,
        EMBEDDING_PROVIDER: 'openai',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: openai.baseURL,
        EMBEDDING_DIMENSION: String(DIMENSION),
        LOG_LEVEL: 'silent',
      },
    });

  /** Resolves with the exit code and output; `onBatch` sees each committed-batch line. */
  const run = (child: ChildProcess, onBatch?: (count: number) => void) =>
    new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>(
      (resolve) => {
        let stdout = '';
        let stderr = '';
        let batches = 0;
        child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr?.on('data', (d: Buffer) => {
          stderr += d.toString();
          const now = stderr.split('\n').filter((l) => l.startsWith('conversations: ')).length;
          if (now > batches) {
            batches = now;
            onBatch?.(batches);
          }
        });
        child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
      },
    );

  const stored = async (dataDir: string) => {
    const database = new Database({ dataDir });
    await database.open(DIMENSION);
    try {
      return {
        windows: await database.query(
          `SELECT id, content, contact_uid, location_uid, conversation_uid, channel, occurred_at
             FROM podium_conversations ORDER BY id`,
        ),
        messages: await database.query(
          'SELECT message_id, text FROM conversation_messages ORDER BY message_id',
        ),
      };
    } finally {
      await database.close();
    }
  };

  it('resumes after kill -9 from its checkpoint and stores what one clean run stores', async () => {
    // Empty initdb'd clusters: each run still creates the extension and runs every migration.
    const killedDir = seedDataDir(join(root, 'killed'));
    const cleanDir = seedDataDir(join(root, 'clean'));
    const statePath = `${file}.ingest-state.json`;

    // Killed after three committed batches (each commits, then checkpoints, then reports).
    const first = cli(killedDir, '--batch', '40');
    const killed = await run(first, (batches) => batches === 3 && first.kill('SIGKILL'));
    expect(killed.signal).toBe('SIGKILL');
    expect(existsSync(statePath)).toBe(true);

    const resumed = await run(cli(killedDir, '--batch', '40'));
    expect(resumed.code).toBe(2); // the bad line
    const report = JSON.parse(resumed.stdout) as Record<string, unknown>;
    expect(report.resumed_from_byte).toBeGreaterThan(0);
    expect(report.resumed_from_byte).toBeLessThan(statSync(file).size);
    expect(report).toMatchObject({ received: 841, failed_total: 1, failed: [{ index: 308 }] });
    expect(existsSync(statePath)).toBe(false); // done: a later run starts from the top

    const clean = await run(cli(cleanDir, '--batch', '10000'));
    expect(clean.code).toBe(2);
    expect(JSON.parse(clean.stdout)).toMatchObject({ resumed_from_byte: 0, received: 841 });

    const after = await stored(killedDir);
    const expected = await stored(cleanDir);
    expect(expected.messages).toHaveLength(840);
    expect(expected.windows.length).toBeGreaterThan(100);
    expect(after).toEqual(expected);
  });

  it('refuses a checkpoint of another file and starts over with --restart', async () => {
    const dataDir = seedDataDir(join(root, 'restart'));
    const statePath = join(root, 'other.state.json');
    writeFileSync(
      statePath,
      JSON.stringify({
        version: 1,
        kind: 'conversations',
        head: 'not this file',
        position: { offset: 5, index: 1 },
      }),
    );

    const refused = await run(cli(dataDir, '--state', statePath));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/file changed since it was written.*--restart/);

    const restarted = await run(cli(dataDir, '--state', statePath, '--restart'));
    expect(JSON.parse(restarted.stdout)).toMatchObject({ received: 841, resumed_from_byte: 0 });
    expect(existsSync(statePath)).toBe(false);
  });
});
