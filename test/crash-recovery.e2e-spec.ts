import { spawn } from 'node:child_process';
import { join } from 'node:path';

import { type FakeOpenAi, startFakeOpenAi } from './fakes/openai-server';
import {
  contactEventData,
  deliverPodiumEvent,
  podiumContact,
  podiumEvent,
} from './fakes/podium-webhooks';
import { type AppProcess, startAppProcess } from './support/app-process';
import { ReadRoutes, record, type Said, wordOf } from './support/crash-probes';
import { placesOf, readStore } from './support/crash-store';
import { persistentEngineEnv, TEST_ENGINE } from './support/postgres';
import { seededRandom, testIterations } from './support/seeded';
import { waitFor, waitUntil } from './support/wait';

/**
 * Issue 36's fault injection: the real server (a child process) is killed with SIGKILL at a
 * seeded random point while it ingests, forgets and merges (`contact.merged` webhooks, one
 * racing a forget of its source), all at once; and the CLI's retention sweep is killed at a
 * seeded embedding call of its rebuild. Each time the server restarts on the same database.
 * After recovery, through the read routes (`/search`, `/context`, MCP) and then in the store
 * itself: nothing forgotten or expired is readable, nothing acknowledged is lost or stored
 * twice, the windows are exactly those the stored messages derive, no work list is left, and
 * the residue scan finds no forgotten id or word. A client re-sends what got no answer
 * (at-least-once), as Podium and our callers do. Reproduce a run with `TEST_SEED=<seed>`
 * (and `TEST_ITERATIONS=<rounds>` if it ran more than one).
 */

const SECRET = 'whsec_crash_e2e';
const DIMENSION = 64;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const ROOT = join(__dirname, '..');
/**
 * Kill rounds of concurrent ingest, forget and merge (plus the retention kill, which also
 * crashes a store already recovered from a kill): one per CI run, each at a new seed;
 * TEST_ITERATIONS=<n> runs more.
 */
const ROUNDS = testIterations('crash-recovery kill rounds', 1);

describe(`crash recovery, kill -9 at seeded points (e2e, child process on ${TEST_ENGINE})`, () => {
  const { seed, random } = seededRandom(`crash-recovery on ${TEST_ENGINE}`);
  const upTo = (ms: number) => Math.floor(random() * ms);
  let words = 0;
  let store: Awaited<ReturnType<typeof persistentEngineEnv>>;
  let openai: FakeOpenAi;
  /** Sees the texts of each embeddings request (the retention kill's trigger). */
  let onEmbed: ((texts: readonly string[]) => void) | undefined;
  let app: AppProcess | undefined;
  let routes: ReadRoutes | undefined;

  /** What the client knows: readable words (with their contact), and words readable nowhere. */
  const live = new Map<string, Said>();
  const gone = new Map<string, Said>();
  const forgotten = new Set<string>();
  const receipts: string[] = [];

  const env = () => ({
    ...store.env,
    EMBEDDING_PROVIDER: 'openai',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: openai.baseURL,
    EMBEDDING_DIMENSION: String(DIMENSION),
    PODIUM_WEBHOOK_SECRET: SECRET,
    HISTORY_RETENTION_DAYS: '30',
  });
  const start = async () => {
    app = await startAppProcess(env(), { readyTimeoutMs: 240_000 });
    routes = await ReadRoutes.open(app.url);
  };
  const crash = async () => {
    const [killed, reading] = [app, routes];
    [app, routes] = [undefined, undefined];
    await killed?.kill9();
    await reading?.close();
  };
  const server = () => {
    if (!app || !routes) {
      throw new Error('no server is running');
    }
    return { url: app.url, routes };
  };

  const conversation = (contact: string, turns: number, from = Date.now() - 3 * 60 * MINUTE) =>
    Array.from({ length: turns }, (_, i): Said => ({
      contact,
      conversation: `conv_${contact}`,
      occurred_at: new Date(from + i * MINUTE).toISOString(),
      sender: i % 2 ? 'agent' : 'customer',
      word: wordOf(seed, words++),
    }));
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${server().url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const ingest = async (said: readonly Said[]) =>
    (await post('/ingest/conversations', said.map(record))).status === 200;
  const forget = async (contact: string) => {
    const answer = await post('/contacts/forget', { contact_uid: contact });
    if (answer.status === 200) {
      receipts.push(answer.body.receipt_id as string);
    }
    return answer.status === 200;
  };
  const merged = (from: string, to: string) =>
    podiumEvent(
      'contact.merged',
      contactEventData({ before: podiumContact(from), after: podiumContact(to) }),
    );
  const deliver = async (event: ReturnType<typeof merged>) =>
    (await deliverPodiumEvent(`${server().url}/webhooks/podium`, SECRET, event)).status === 202;
  const remember = (said: readonly Said[]) => said.forEach((s) => live.set(s.word, s));
  const lose = (said: readonly Said[]) =>
    said.forEach((s) => {
      live.delete(s.word);
      gone.set(s.word, s);
    });
  const wordsOf = (said: readonly Said[]) => said.map((s) => s.word).sort();
  /** The words of `said` the contact's windows hold, sorted. */
  const readable = async (contact: string, said: readonly Said[]) =>
    (await server().routes.contactWords(contact, wordsOf(said))).sort();
  const seedHistory = async (contact: string, turns: number) => {
    const said = conversation(contact, turns);
    expect(await ingest(said)).toBe(true);
    remember(said);
    return said;
  };

  /** Through the routes: every live word under its contact, no gone word on any route. */
  const expectReadsHold = async () => {
    const byContact = new Map<string, Said[]>();
    live.forEach((s) => byContact.set(s.contact, [...(byContact.get(s.contact) ?? []), s]));
    for (const [contact, said] of byContact) {
      expect({ contact, words: await readable(contact, said) }).toEqual({
        contact,
        words: wordsOf(said),
      });
    }
    const contacts = [...new Set([...live.values(), ...gone.values()].map((s) => s.contact))];
    const hidden = [...gone.keys()];
    for (let i = 0; i < hidden.length; i += 50) {
      expect(await server().routes.anyRouteWords(contacts, hidden.slice(i, i + 50))).toEqual([]);
    }
  };

  beforeAll(async () => {
    store = await persistentEngineEnv();
    // A little latency per embedding call widens the window a kill can land in mid-rebuild.
    openai = await startFakeOpenAi({
      dimension: DIMENSION,
      embedDelayMs: (texts) => {
        onEmbed?.(texts);
        return 30;
      },
    });
    await start();
    // Bystanders: history no round touches, which must come through every crash intact.
    for (let i = 0; i < 3; i++) {
      await seedHistory(`ctc_keep_${i}`, 4);
    }
  }, 300_000);
  afterAll(async () => {
    await crash();
    await openai?.close();
    await store?.release();
  });

  /** Ingests, forgets and merges at once; SIGKILL at a seeded delay; restart; re-send. */
  const killRound = async (round: number) => {
    const victims = [0, 1].map((i) => `ctc_fg_${round}_${i}`);
    const pairs = [0, 1].map((i) => ({ from: `ctc_mf_${round}_${i}`, to: `ctc_mt_${round}_${i}` }));
    const said = new Map<string, Said[]>();
    for (const contact of [...victims, ...pairs.flatMap((p) => [p.from, p.to])]) {
      said.set(contact, await seedHistory(contact, 4));
    }
    const fresh = [0, 1, 2].map((i) => conversation(`ctc_in_${round}_${i}`, 5));
    const events = pairs.map((p) => merged(p.from, p.to));
    // The first merge's source is forgotten too, racing its merge.
    const raced = pairs[0].from;
    const ops = [
      ...fresh.map((batch) => () => ingest(batch)),
      ...[...victims, raced].map((contact) => () => forget(contact)),
      ...events.map((event) => () => deliver(event)),
    ];
    const killAt = upTo(1200);
    const running = ops.map((op) => op().catch(() => false));
    // The fault itself, not a wait: the kill lands wherever the work is after `killAt` ms.
    await new Promise<void>((resolve) => setTimeout(() => void crash().then(resolve), killAt));
    const answered = await Promise.all(running);
    console.log(`kill round ${round}: SIGKILL at ${killAt} ms; answered ${answered.join(',')}`);
    await start();

    const [ingested, forgets, deliveries] = [
      answered.slice(0, 3),
      answered.slice(3, 6),
      answered.slice(6),
    ];
    for (const [i, contact] of victims.entries()) {
      // A forget is all or nothing, and one that answered holds before anything else runs.
      const left = await readable(contact, said.get(contact)!);
      expect(forgets[i] ? [[]] : [[], wordsOf(said.get(contact)!)]).toContainEqual(left);
    }
    // The client and Podium re-send what got no answer (an event id makes a redelivery a no-op).
    for (const [i, batch] of fresh.entries()) {
      expect(ingested[i] || (await ingest(batch))).toBe(true);
      remember(batch);
    }
    for (const [i, contact] of [...victims, raced].entries()) {
      expect(forgets[i] || (await forget(contact))).toBe(true);
      forgotten.add(contact);
    }
    victims.forEach((contact) => lose(said.get(contact)!));
    for (const [i, event] of events.entries()) {
      expect(deliveries[i] || (await deliver(event))).toBe(true);
    }
    for (const { from, to } of pairs) {
      await waitUntil(`${from} merged away`, async () => {
        return (await readable(from, said.get(from)!)).length === 0;
      });
      const moved = await readable(to, said.get(from)!);
      if (from === raced && moved.length === 0) {
        lose(said.get(from)!); // the forget came first: nothing of it moved
      } else {
        expect(moved).toEqual(wordsOf(said.get(from)!));
        remember(said.get(from)!.map((s) => ({ ...s, contact: to })));
        // The merge came first: its conversation (`conv_<from>`, the id names the source)
        // is now the survivor's, so the source id is no residue when that id shows up.
        forgotten.delete(from);
      }
    }
  };

  /** The CLI's sweep (`purge-history`), killed `killAfter` ms into its first embedding of `words`. */
  const sweep = (words: readonly string[], killAfter?: number) =>
    new Promise<string>((resolve) => {
      const child = spawn(process.execPath, ['bin/context-bridge.js', 'purge-history'], {
        cwd: ROOT,
        env: { ...process.env, ...env(), LOG_LEVEL: 'silent', SEED_DEMO_DATA: 'false' },
        stdio: 'ignore',
      });
      onEmbed = (texts) => {
        if (killAfter !== undefined && texts.some((t) => words.some((w) => t.includes(w)))) {
          // The embedding answers after 30 ms, then the rebuild writes: before, during or after.
          setTimeout(() => child.kill('SIGKILL'), killAfter);
        }
      };
      child.on('exit', (code, signal) => {
        onEmbed = undefined;
        resolve(signal ?? `exit ${code}`);
      });
    });

  /** Expired history, the sweep killed mid-rebuild, the server restarted on what it left. */
  const retentionRound = async () => {
    const old = Date.now() - 40 * DAY;
    // Two conversations keep recent turns (a rebuild), one expires whole (a removal).
    const expiring = [0, 1, 2].map((i) => conversation(`ctc_rt_${i}`, 2, old + i * MINUTE));
    const kept = expiring.slice(0, 2).map((said) => conversation(said[0].contact, 3));
    for (const [i, said] of expiring.entries()) {
      expect(await ingest([...said, ...(kept[i] ?? [])])).toBe(true);
      remember([...said, ...(kept[i] ?? [])]);
    }
    await crash();
    const killAfter = upTo(150);
    const ended = await sweep(wordsOf(kept.flat()), killAfter);
    const expired = expiring.flat();
    const peek = await readStore(store.env, DIMENSION, wordsOf(expired), []);
    const deleted = expired.filter((s) => peek.rows.get(s.word)?.length === 0);
    console.log(
      `retention: sweep ${ended} ${killAfter} ms into its rebuild; ${deleted.length}/${expired.length} expired messages deleted, ${peek.listedRebuilds} conversations listed`,
    );
    await start();
    lose(deleted);
    // What the sweep deleted leaves every route once the restarted server finishes its list.
    await waitUntil('the expired messages’ windows rebuilt away', async () => {
      const contacts = expiring.map((s) => s[0].contact);
      return (await server().routes.anyRouteWords(contacts, wordsOf(deleted))).length === 0;
    });
    return expired;
  };

  it('survives kill -9 during ingest, forget, merge and retention', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      await killRound(round);
      await expectReadsHold();
    }
    const expired = await retentionRound();
    await expectReadsHold();

    // Every forget finishes on its own (its receipt completes) before the store is read.
    for (const id of receipts) {
      await waitFor(`receipt ${id} completed`, async () => {
        const answer = await fetch(`${server().url}/contacts/forget/receipts/${id}`);
        const body = (await answer.json()) as { completed_at?: string | null };
        return body.completed_at ? true : undefined;
      });
    }
    await crash();
    // The next sweep expires what the killed one had not reached.
    expect(await sweep([])).toBe('exit 0');
    lose(expired);
    const all = [...live.values(), ...gone.values()];
    const state = await readStore(store.env, DIMENSION, wordsOf(all), [
      ...forgotten,
      ...gone.keys(),
    ]);
    expect(placesOf(state, all)).toEqual(
      Object.fromEntries(all.map((s) => [s.word, live.has(s.word) ? [s.contact] : []])),
    );
    expect(state).toMatchObject({
      strayWindows: [],
      missingWindows: [],
      duplicateWindows: [],
      ledgerMismatch: [],
      listedRebuilds: 0,
      pendingForgets: 0,
      residue: [],
    });
  }, 900_000);
});
