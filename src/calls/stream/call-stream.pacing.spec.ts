import { strictDouble } from '../../../test/support/doubles';
import { EMPTY_BUNDLE, FakeStreamSocket } from '../../../test/support/fake-stream-socket';
import { seededRandom } from '../../../test/support/seeded';
import { type AppConfig } from '../../config/app-config';
import { type ContextBundle, type ContextFetchRequestDto } from '../../context/context.dto';
import { type ContextService } from '../../context/context.service';
import { type CallIdentity } from '../../context/speculative/call-sessions';
import {
  FINALS_BURST,
  FLOOD_MEMORY_MS,
  FLOODING_CALLER_BUILDS_PER_SECOND,
  MAX_FINALS_IN_FLIGHT,
} from './call-stream.protocol';
import { CallStreams } from './call-stream.route';

/** Streams attached as the route attaches them (one pacer and one caller gate for all). */
function harness(options: { hold?: boolean } = {}) {
  const built: ContextFetchRequestDto[] = [];
  const pending: Array<() => void> = [];
  const remembered: Array<[string, string]> = [];
  const context = strictDouble<ContextService>({
    interim: () => 'scheduled',
    build: (request) => {
      built.push(request);
      return options.hold
        ? new Promise<ContextBundle>((resolve) => pending.push(() => resolve(EMPTY_BUNDLE)))
        : Promise.resolve(EMPTY_BUNDLE);
    },
  });
  const streams = new CallStreams(
    { server: { shutdownDrainMs: 1000 }, security: { corsOrigins: [] } } as unknown as AppConfig,
    { countUnguarded: jest.fn() },
  );
  const endCall = jest.fn(() => Promise.resolve());
  const deps = {
    context,
    endCall,
    remember: (identity: CallIdentity, transcript: string) =>
      remembered.push([identity.callId, transcript]),
  };
  const open = (caller: string, callId: string) => {
    const socket = new FakeStreamSocket();
    const identity = { caller, callId, contactUid: 'ctc', scope: undefined };
    const connection = streams.attach(socket, identity, 'r', deps);
    return { socket, connection };
  };
  return { open, built, pending, remembered, endCall };
}

const bundles = (socket: FakeStreamSocket) => socket.sent.filter((m) => m.type === 'bundle');
const errors = (socket: FakeStreamSocket) => socket.sent.filter((m) => m.type === 'error');

/** Sends finals one after the other, each answered before the next (not `stream_busy`). */
async function finals(
  socket: FakeStreamSocket,
  seqs: number[],
  text = (seq: number) => `turn ${seq}`,
) {
  for (const seq of seqs) {
    socket.frame({ type: 'final', transcript: text(seq), seq });
    await jest.advanceTimersByTimeAsync(0);
  }
}
const upTo = (n: number, from = 1) => Array.from({ length: n - from + 1 }, (_, i) => from + i);

describe('call stream finals pacing (issue 37: a flood of finals keeps its words, builds little)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("a voice agent's cadence (a final every 1-3 s) gets every bundle, beside 10 of its own key's streams flooding finals", async () => {
    const { random } = seededRandom('voice cadence beside a flood');
    const { open, built } = harness();
    const real = open('key:platform', 'real-call').socket;
    const flood = Array.from({ length: 10 }, (_, n) => open('key:platform', `flood-${n}`).socket);
    const seconds = 30;
    let next = 0;
    let sentReal = 0;
    for (let t = 0; t < seconds * 1000; t += 22) {
      flood.forEach((socket, n) =>
        socket.frame({ type: 'final', transcript: `order ${n} at ${t}`, seq: t }),
      );
      if (t >= next) {
        real.frame({ type: 'final', transcript: `real turn ${sentReal}`, seq: sentReal++ });
        next = t + 1000 + Math.floor(random() * 2000);
      }
      await jest.advanceTimersByTimeAsync(22);
    }
    expect(errors(real)).toEqual([]);
    expect(bundles(real).map((m) => m.seq)).toEqual(Array.from({ length: sentReal }, (_, i) => i));
    // The ten flooding calls: their bursts, then one shared budget (was 1 a second each: 320).
    const floodBuilds = built.filter((r) => r.call_id?.startsWith('flood-')).length;
    expect(floodBuilds).toBeLessThanOrEqual(
      10 * FINALS_BURST + seconds * FLOODING_CALLER_BUILDS_PER_SECOND + 1,
    );
    expect(flood.every((s) => s.closedWith === undefined)).toBe(true);
    expect(errors(flood[0])[0]).toMatchObject({
      problem: { error: 'stream_finals_rate_limited', status: 429 },
    });
  });

  it("an over-rate final is answered 429 stream_finals_rate_limited and its words ride with the call's next built final", async () => {
    const { open, built } = harness();
    const { socket } = open('key:a', 'c1');
    await finals(socket, upTo(FINALS_BURST + 2));
    expect(built).toHaveLength(FINALS_BURST);
    expect(errors(socket).map((m) => m.seq)).toEqual([FINALS_BURST + 1, FINALS_BURST + 2]);
    // Flooding now: the next build waits for the call's rate and the caller's shared budget.
    await jest.advanceTimersByTimeAsync(1000);
    socket.frame({ type: 'final', transcript: 'where is my order', seq: 9 });
    await jest.advanceTimersByTimeAsync(0);
    expect(built.at(-1)?.transcript).toBe(
      `turn ${FINALS_BURST + 1} turn ${FINALS_BURST + 2} where is my order`,
    );
    expect(bundles(socket).at(-1)).toMatchObject({ seq: 9 });
  });

  it('a final past the stream_busy cap keeps its words too', async () => {
    const { open, built, pending } = harness({ hold: true });
    const { socket } = open('key:a', 'c1');
    for (let seq = 1; seq <= MAX_FINALS_IN_FLIGHT + 1; seq++) {
      socket.frame({ type: 'final', transcript: `turn ${seq}`, seq });
    }
    await jest.advanceTimersByTimeAsync(0);
    expect(errors(socket)[0]).toMatchObject({ problem: { error: 'stream_busy' } });
    pending.shift()?.();
    await jest.advanceTimersByTimeAsync(0);
    socket.frame({ type: 'final', transcript: 'last', seq: 7 });
    await jest.advanceTimersByTimeAsync(0);
    expect(built.at(-1)?.transcript).toBe(`turn ${MAX_FINALS_IN_FLIGHT + 1} last`);
  });

  it("kept words join the call's memory when the stream stops or the call ends before another build", async () => {
    const { open, remembered, endCall } = harness();
    const first = open('key:a', 'c1').socket;
    await finals(first, upTo(FINALS_BURST + 1));
    // A reconnect replaces the stream: what it kept is not lost with it.
    const second = open('key:a', 'c1').socket;
    expect(first.closedWith?.reason).toBe('stream_replaced');
    expect(remembered).toEqual([['c1', `turn ${FINALS_BURST + 1}`]]);
    second.frame({ type: 'final', transcript: 'kept again', seq: 1 });
    second.frame({ type: 'end' });
    await jest.advanceTimersByTimeAsync(0);
    expect(remembered.at(-1)).toEqual(['c1', 'kept again']);
    expect(endCall).toHaveBeenCalledTimes(1);
  });

  it("ten flooding streams of one caller that stop hand their kept words to memory within the caller's shared budget", async () => {
    const { open, remembered } = harness();
    const flood = Array.from({ length: 10 }, (_, n) => open('key:a', `flood-${n}`));
    for (const { socket } of flood) {
      await finals(socket, upTo(FINALS_BURST + 5));
    }
    // Each stopped stream held words; a flood's stops cost what its builds may (1 a second).
    flood.forEach(({ connection }) => connection.close('stream_idle'));
    expect(remembered.length).toBeLessThanOrEqual(FLOODING_CALLER_BUILDS_PER_SECOND);
    // A call of another caller, at its cadence, is not held to that budget.
    const calm = open('key:b', 'calm').socket;
    await finals(calm, upTo(FINALS_BURST + 1));
    open('key:b', 'calm');
    expect(remembered.at(-1)).toEqual(['calm', `turn ${FINALS_BURST + 1}`]);
  });

  it("a reconnect does not refill the call's burst; a call quiet for FLOOD_MEMORY_MS builds at its rate again", async () => {
    const { open, built } = harness();
    const first = open('key:a', 'c1').socket;
    await finals(first, upTo(FINALS_BURST));
    const second = open('key:a', 'c1').socket;
    await finals(second, [1], () => 'again at once');
    expect(built).toHaveLength(FINALS_BURST);
    expect(errors(second)[0]).toMatchObject({ problem: { error: 'stream_finals_rate_limited' } });
    await jest.advanceTimersByTimeAsync(FLOOD_MEMORY_MS);
    await finals(second, upTo(4, 2), (seq) => `later ${seq}`);
    expect(bundles(second).map((m) => m.seq)).toEqual([2, 3, 4]);
  });
});
