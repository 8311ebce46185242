import { OPCODE, RawWebSocket } from '../../test/support/raw-websocket';
import { prng } from './prng';

/** What the attacker got back: counts per outcome (close code and reason, or HTTP refusal). */
type Statuses = Record<string, number>;

const count = (statuses: Statuses, key: string) => (statuses[key] = (statuses[key] ?? 0) + 1);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long one hostile stream lives before the attacker tallies it and opens the next. */
const STREAM_LIFE_MS = 8_000;

type Behaviour = (socket: RawWebSocket, live: () => boolean, random: () => number) => Promise<void>;

/** A final every 22 ms (45 a second, under the frame rate), read by nobody. */
const finalsUnread: Behaviour = async (socket, live) => {
  socket.stopReading();
  for (let seq = 0; live(); seq++) {
    socket.text({ type: 'final', transcript: `where is my order ${seq}`, seq, max_tokens: 4000 });
    await sleep(22);
  }
};

/** A final every 100 ms asking for the largest bundle, never read (the slow reader). */
const slowReader: Behaviour = async (socket, live) => {
  socket.stopReading();
  for (let seq = 0; live(); seq++) {
    socket.text({ type: 'final', transcript: `my order and delivery ${seq}`, seq, max_tokens: 4000 });
    await sleep(100);
  }
};

/** Bursts of 200 pings with the largest payload a control frame may carry. */
const pingFlood: Behaviour = async (socket, live) => {
  while (live()) {
    for (let i = 0; i < 200; i++) {
      socket.send(OPCODE.ping, 'p'.repeat(125));
    }
    await sleep(50);
  }
};

/** Interims growing word by word at 45 a second (speculation on every one it takes). */
const interimFlood: Behaviour = async (socket, live, random) => {
  const words = ['order', 'delivery', 'refund', 'table', 'sofa', 'address', 'invoice', 'chair'];
  let text = 'my';
  while (live()) {
    text = text.length > 400 ? 'my' : `${text} ${words[Math.floor(random() * words.length)]}`;
    socket.text({ type: 'interim', transcript: text });
    await sleep(22);
  }
};

/** Frames no client should send: bad JSON, binary, invalid UTF-8, an unfinished fragment. */
const junkFrames: Behaviour = async (socket, live, random) => {
  const junk = [
    () => socket.text('{"type": "final",'),
    () => socket.send(OPCODE.binary, Buffer.from([1, 2, 3])),
    () => socket.send(OPCODE.text, Buffer.from([0xc3, 0x28])),
    () => socket.send(OPCODE.text, '{"type":"final","transcript":"' + 'a'.repeat(30_000), false),
    () => socket.text({ type: 'shout', transcript: 'x'.repeat(8001), seq: 2 ** 40 }),
  ];
  while (live()) {
    junk[Math.floor(random() * junk.length)]();
    await sleep(200);
  }
};

const MIXED: Behaviour[] = [finalsUnread, slowReader, pingFlood, interimFlood, junkFrames];

/**
 * `clients` hostile stream clients until `until()`, each on a call id of its own (a new stream
 * replaces its last one, as an agent reconnecting would: the call registry is not what is
 * attacked). Each stream lives {@link STREAM_LIFE_MS} or until the server closes it, then is
 * tallied by the server's close code and reason (`open` when it never closed it).
 */
function streamFlood(
  url: string,
  until: () => boolean,
  seed: number,
  behaviours: Behaviour[],
  clients = 50,
): Promise<Statuses> {
  const statuses: Statuses = {};
  return Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      const random = prng(seed + client);
      const behaviour = behaviours[client % behaviours.length];
      while (!until()) {
        const path = `/calls/abuse_stream_${client}/stream?contact_uid=ctc_demo_alice`;
        const socket = await RawWebSocket.open(url, path).catch(() => undefined);
        if (!socket || socket.status !== 101) {
          count(statuses, socket ? `http ${socket.status}` : 'connect failed');
          socket?.destroy();
          await sleep(100);
          continue;
        }
        const end = performance.now() + STREAM_LIFE_MS;
        const live = () => !until() && !socket.socket.destroyed && performance.now() < end;
        await behaviour(socket, live, random);
        // Read what the server sent (its close frame is behind whatever it queued).
        socket.socket.resume();
        await Promise.race([socket.ended, sleep(1000)]);
        const close = socket.closeFrame;
        count(statuses, close ? `close ${close.code} ${close.reason}` : 'open');
        socket.destroy();
      }
    }),
  ).then(() => statuses);
}

/** 50 hostile stream clients, ten of each: unread finals, slow reader, pings, interims, junk. */
export const callStreamFlood = (url: string, until: () => boolean, seed: number) =>
  streamFlood(url, until, seed, MIXED);

/** 50 stream clients that ask for bundles and never read them (the server's send buffer). */
export const callStreamSlowReaders = (url: string, until: () => boolean, seed: number) =>
  streamFlood(url, until, seed, [slowReader]);
