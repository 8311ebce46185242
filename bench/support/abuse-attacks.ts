import { connect, type Socket } from 'node:net';

import { callStreamFlood, callStreamSlowReaders } from './abuse-streams';
import { prng } from './prng';

/** What the attacker got back: counts per `status code` (and the error code when JSON). */
export type Statuses = Record<string, number>;

const count = (statuses: Statuses, key: string) => (statuses[key] = (statuses[key] ?? 0) + 1);

/** Runs `shoot` from `clients` loops until `until()`; tallies each answer's status. */
async function loops(
  clients: number,
  until: () => boolean,
  shoot: () => Promise<string>,
): Promise<Statuses> {
  const statuses: Statuses = {};
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!until()) {
        count(statuses, await shoot().catch((error: unknown) => `error ${(error as Error).name}`));
      }
    }),
  );
  return statuses;
}

/** `status error_code` of a fetch answer, the body read to its end. */
async function outcome(response: Response): Promise<string> {
  const text = await response.text();
  const code = /^\s*\{/.test(text) ? /"error"\s*:\s*"([^"]+)"/.exec(text)?.[1] : undefined;
  return code ? `${response.status} ${code}` : String(response.status);
}

const postJson = (url: string, body: string, type = 'application/json', accept?: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': type, ...(accept ? { accept } : {}) },
    body,
  }).then(outcome);

/**
 * 100 sockets that send their headers and then one byte of body every second: a third each
 * on /ingest/conversations (1 MB announced), /chat and /webhooks/podium. Each socket's answer
 * is tallied when the server closes it; sockets still open at the end count as `open`.
 */
export async function slowLoris(url: string, until: () => boolean): Promise<Statuses> {
  const { port } = new URL(url);
  const paths = ['/ingest/conversations', '/chat', '/webhooks/podium'];
  const statuses: Statuses = {};
  const sockets: Socket[] = [];
  const answers = Array.from({ length: 100 }, (_, i) => {
    const socket = connect(Number(port), '127.0.0.1');
    sockets.push(socket);
    socket.on('error', () => undefined);
    socket.write(
      `POST ${paths[i % paths.length]} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n` +
        `content-length: 1000000\r\n\r\n{`,
    );
    let head = '';
    socket.on('data', (chunk: Buffer) => (head += chunk.toString('utf8')));
    return new Promise<void>((resolve) =>
      socket.once('close', () => {
        const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 'closed';
        const code = /"error"\s*:\s*"([^"]+)"/.exec(head)?.[1];
        count(statuses, code ? `${status} ${code}` : status);
        resolve();
      }),
    );
  });
  const trickle = setInterval(() => sockets.forEach((s) => s.writable && s.write(' ')), 1000);
  while (!until()) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  clearInterval(trickle);
  const open = sockets.filter((s) => !s.destroyed).length;
  sockets.forEach((s) => s.destroy());
  await Promise.all(answers);
  if (open > 0) {
    statuses.open_at_end = open;
  }
  return statuses;
}

/** 32 MB bodies of junk NDJSON lines (random bytes as JSON strings), two uploads at a time. */
export function junkNdjson(url: string, until: () => boolean, seed: number): Promise<Statuses> {
  const random = prng(seed);
  const line = () => `{"junk":"${Math.floor(random() * 1e16).toString(36)}"}\n`;
  let body = '';
  while (body.length < 1024 * 1024) {
    body += line();
  }
  const junk = body.repeat(31); // ~32 MB, under the body limit
  return loops(2, until, () =>
    postJson(`${url}/ingest/conversations`, junk, 'application/x-ndjson'),
  );
}

/** JSON-RPC batches of 100 `search_history` calls, four clients. */
export function mcpBatches(url: string, until: () => boolean): Promise<Statuses> {
  let n = 0;
  return loops(4, until, () => {
    const batch = Array.from({ length: 100 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: { name: 'search_history', arguments: { query: `order ${n++} status` } },
    }));
    return postJson(
      `${url}/mcp`,
      JSON.stringify(batch),
      'application/json',
      'application/json, text/event-stream',
    );
  });
}

/** 32 clients asking /chat back to back, each stream read to its end. */
export function chatFlood(url: string, until: () => boolean): Promise<Statuses> {
  let n = 0;
  return loops(32, until, () =>
    postJson(
      `${url}/chat`,
      // The demo curriculum's employee, so each stream retrieves and answers in full.
      JSON.stringify({
        query: `What defines a role in a circle? (${n++})`,
        userId: 'demo-employee',
      }),
    ),
  );
}

/** 32 clients probing /health/ready back to back. */
export function readyFlood(url: string, until: () => boolean): Promise<Statuses> {
  return loops(32, until, () => fetch(`${url}/health/ready`).then(outcome));
}

/** The German-compound street pattern's worst case (issue 37): 60 KB of `A-` after a hint. */
export function adversarialRedact(url: string, until: () => boolean): Promise<Statuses> {
  const texts = ['Weg 1 ' + 'A-'.repeat(30000), 'weg 1 ' + 'a-'.repeat(30000)];
  let n = 0;
  return loops(2, until, () =>
    postJson(`${url}/redact`, JSON.stringify({ text: texts[n++ % texts.length] })),
  );
}

/** One small conversation for the forget/ingest mix, on one of 40 contacts. */
const records = (i: number) => [
  {
    conversation_uid: `abuse-${i}`,
    contact_uid: `ctc_abuse_${i % 40}`,
    channel: 'sms',
    occurred_at: '2026-01-05T10:00:00Z',
    sender: 'customer',
    text: `My order ${i} has not arrived yet, can you check the delivery date?`,
  },
];

/** 50 concurrent clients alternating a forget and a small ingest (Postgres, pool of 10). */
export function forgetsAndIngests(url: string, until: () => boolean): Promise<Statuses> {
  let n = 0;
  return loops(50, until, () => {
    const i = n++;
    return i % 2 === 0
      ? fetch(`${url}/contacts/ctc_abuse_${i % 40}/history`, { method: 'DELETE' }).then(outcome)
      : postJson(`${url}/ingest/conversations`, JSON.stringify(records(i)));
  });
}

export type AttackName = keyof typeof ATTACKS;

/** Every attack by the name bench:abuse and its attacker process know it. */
export const ATTACKS = {
  'slow-loris': slowLoris,
  'junk-ndjson': junkNdjson,
  'mcp-batches': mcpBatches,
  'chat-flood': chatFlood,
  'ready-flood': readyFlood,
  'adversarial-redact': adversarialRedact,
  'forgets-ingests': forgetsAndIngests,
  'call-stream-flood': callStreamFlood,
  'call-stream-slow-readers': callStreamSlowReaders,
} satisfies Record<string, (url: string, until: () => boolean, seed: number) => Promise<Statuses>>;
