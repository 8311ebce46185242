import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

import { Database } from '@app/database';
import { Client } from 'pg';

import { generateApiKey } from '../src/config/api-key-entries';
import { reembed } from '../src/reembed/reembed-runner';
import { fakeEmbedding, type FakeOpenAi, startFakeOpenAi } from './fakes/openai-server';
import { type AppProcess, startAppProcess } from './support/app-process';
import { engineEnv } from './support/postgres';
import { seededRandom } from './support/seeded';
import { waitUntil } from './support/wait';

const ROOT = join(__dirname, '..');
// The README's production path: OpenAI's models at their own sizes (3,072-d is halfvec).
const FROM = { provider: 'openai', model: 'text-embedding-3-small', dimension: 1536 };
const TO = { provider: 'openai', model: 'text-embedding-3-large', dimension: 3072 };
const voice = generateApiKey('voice-agent', [], ['context:read']);
const loader = generateApiKey('history-loader', [], ['ingest:write']);
const bearer = (key: { key: string }) => ({
  'content-type': 'application/json',
  authorization: `Bearer ${key.key}`,
});
const CONTACTS = 30;
const TOPICS = ['espresso boiler leak', 'standing desk motor', 'invoice refund', 'delivery date'];

/** The CLI as an operator runs it, in a process of its own (so it can be killed -9). */
function cli(args: string[], env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, ['bin/context-bridge.js', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr?.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    done: () => exited.then((e) => ({ ...e, stdout, stderr })),
  };
}

/**
 * The README's production path (issue 39): the service up on Postgres in production mode
 * (scoped keys, no CRM, no curriculum) on OpenAI-shaped embeddings at 1,536-d, `context-bridge
 * reembed` to 3,072-d (halfvec) in another process, killed -9 mid-backfill and run again, while /context
 * is called in a loop: no 5xx, the rerun resumes, the service follows the switch, and every
 * window ends on the new model.
 */
describe('context-bridge reembed beside a running service (Postgres)', () => {
  let openai: FakeOpenAi;
  let app: AppProcess;
  let env: Record<string, string>;
  let release: () => Promise<void>;
  let sql: Client;
  const { random } = seededRandom('reembed-live');

  beforeAll(async () => {
    // Batches of the backfill (several texts) are slowed, so a kill lands mid-way; queries are not.
    openai = await startFakeOpenAi({
      apiKey: 'sk-test',
      dimension: FROM.dimension,
      embedDelayMs: (texts) => (texts.length > 1 ? 60 : 0),
    });
    const engine = await engineEnv();
    release = engine.release;
    env = {
      ...engine.env,
      NODE_ENV: 'production',
      API_KEYS: [voice.line, loader.line].join(','),
      PODIUM_PROVIDER: 'none',
      CURRICULUM_PROVIDER: 'none',
      EMBEDDING_PROVIDER: 'openai',
      EMBEDDING_MODEL: FROM.model,
      EMBEDDING_DIMENSION: String(FROM.dimension),
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: openai.baseURL,
    };
    app = await startAppProcess(env);
    sql = new Client({ connectionString: env.DATABASE_URL });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
    await app?.stop();
    await release?.();
    await openai?.close();
  });

  it('answers throughout, resumes after kill -9, and ends with every window on the new model', async () => {
    for (let c = 0; c < CONTACTS; c++) {
      const turns = Array.from({ length: 6 }, (_, i) => ({
        conversation_uid: `conv_${c}`,
        contact_uid: `ctc_${c}`,
        channel: 'sms',
        occurred_at: new Date(Date.UTC(2026, 0, 5, 10, i)).toISOString(),
        sender: i % 2 ? 'agent' : 'customer',
        text: `${TOPICS[(c + i) % TOPICS.length]} note ${i} for ${c}`,
      }));
      const r = await fetch(`${app.url}/ingest/conversations`, {
        method: 'POST',
        headers: bearer(loader),
        body: JSON.stringify(turns),
      });
      expect(r.status).toBe(200);
    }
    const statuses: number[] = [];
    let running = true;
    const caller = (async () => {
      while (running) {
        const c = Math.floor(random() * CONTACTS);
        const r = await fetch(`${app.url}/context`, {
          method: 'POST',
          headers: bearer(voice),
          body: JSON.stringify({ transcript: `${TOPICS[c % 4]} again`, contact_uid: `ctc_${c}` }),
        });
        await r.arrayBuffer();
        statuses.push(r.status);
      }
    })();
    const args = [
      'reembed',
      '--model',
      TO.model,
      '--dimension',
      String(TO.dimension),
      '--batch',
      '2',
    ];

    const first = cli(args, env);
    const filled = async () => {
      const { rows } = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_attribute WHERE attrelid = 'podium_conversations'::regclass
           AND attname = 'embedding_next' AND NOT attisdropped`,
      );
      if (rows[0]?.n !== 1) {
        return 0;
      }
      const done = await sql.query<{ n: number }>(
        `SELECT count(embedding_next)::int AS n FROM podium_conversations`,
      );
      return done.rows[0]?.n ?? 0;
    };
    await waitUntil('the first run to be mid-backfill', async () => (await filled()) >= 6, 120_000);
    first.child.kill('SIGKILL');
    expect((await first.done()).signal).toBe('SIGKILL');
    const leftBehind = await filled();
    expect(leftBehind).toBeGreaterThanOrEqual(6);

    const second = await cli([...args, '--no-progress'], env).done();
    expect(second.stderr).not.toMatch(/error/);
    expect(second.code).toBe(0);
    const report = JSON.parse(second.stdout) as { resumed: boolean; embedded: number; to: unknown };
    expect(report).toMatchObject({ resumed: true, to: TO });

    // The switch has committed: the service follows within its poll interval, or at its
    // first search that meets the new column. Some calls after it.
    await expect(modelOfStore()).resolves.toBe(TO.model);
    const atSwitch = statuses.length;
    await waitUntil('calls on the new model', () => statuses.length >= atSwitch + 20);
    running = false;
    await caller;

    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const { rows } = await sql.query<{ content: string; v: string }>(
      `SELECT content, embedding::text AS v FROM podium_conversations`,
    );
    // Windows are kept whole: what the first run embedded is not embedded again.
    expect(report.embedded).toBe(rows.length - leftBehind);
    for (const row of rows) {
      const want = fakeEmbedding(row.content, TO.dimension);
      const got = JSON.parse(row.v) as number[];
      expect(got).toHaveLength(TO.dimension);
      // halfvec keeps about three significant digits.
      expect(Math.max(...got.map((x, i) => Math.abs(x - want[i])))).toBeLessThan(1e-3);
    }
    const after = await fetch(`${app.url}/context`, {
      method: 'POST',
      headers: bearer(voice),
      body: JSON.stringify({ transcript: 'standing desk motor', contact_uid: 'ctc_1' }),
    });
    expect(after.status).toBe(200);
    const bundle = (await after.json()) as { historical_excerpts: unknown[] };
    expect(bundle.historical_excerpts.length).toBeGreaterThan(0);
  });

  it('a second run while one is under way is refused with reembed_running, not run twice', async () => {
    // Two operators' processes (here two Database instances) on the store the first test left.
    const BACK = { provider: 'openai', model: 'text-embedding-3-small', dimension: 512 };
    const [first, second] = [0, 1].map(
      () => new Database({ dataDir: 'memory://', databaseUrl: env.DATABASE_URL }),
    );
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    try {
      await Promise.all([first, second].map((db) => db.open(TO.dimension, TO)));
      const embed = (texts: string[]) => texts.map((t) => fakeEmbedding(t, BACK.dimension));
      const running = reembed({
        database: first,
        target: BACK,
        batch: 64,
        embed: async (texts) => {
          entered();
          await held;
          return embed(texts);
        },
      });
      await inside;
      await expect(
        reembed({
          database: second,
          target: BACK,
          batch: 64,
          embed: () => Promise.reject(new Error('must not embed')),
        }),
      ).rejects.toMatchObject({ code: 'reembed_running' });
      release();
      await expect(running).resolves.toMatchObject({ to: BACK, resumed: false });
      await expect(modelOfStore()).resolves.toBe(BACK.model);
      // The running service follows this switch too (another process again).
      await waitUntil('the service answers on the new size', async () => {
        const r = await fetch(`${app.url}/context`, {
          method: 'POST',
          headers: bearer(voice),
          body: JSON.stringify({ transcript: 'standing desk motor', contact_uid: 'ctc_1' }),
        });
        const body = (await r.json()) as { historical_excerpts?: unknown[] };
        return r.status === 200 && (body.historical_excerpts?.length ?? 0) > 0;
      });
    } finally {
      release();
      await Promise.all([first, second].map((db) => db.close()));
    }
  });

  async function modelOfStore(): Promise<string | undefined> {
    const { rows } = await sql.query<{ model: string }>(`SELECT model FROM embedding_model`);
    return rows[0]?.model;
  }
});
