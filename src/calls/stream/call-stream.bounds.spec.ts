import { strictDouble } from '../../../test/support/doubles';
import { EMPTY_BUNDLE, FakeStreamSocket } from '../../../test/support/fake-stream-socket';
import { type AppConfig } from '../../config/app-config';
import { type ContextBundle } from '../../context/context.dto';
import { type ContextService } from '../../context/context.service';
import { CallStreamConnection } from './call-stream.connection';
import { CallerFinals } from './call-stream.guards';
import {
  CLOSE_GRACE_MS,
  FINALS_BURST,
  MAX_BUFFERED_BYTES,
  MAX_CALLER_FINALS_IN_FLIGHT,
  MAX_FINALS_IN_FLIGHT,
  MAX_FRAMES_PER_SECOND,
  STREAM_CLOSE,
  STREAM_PING_MS,
} from './call-stream.protocol';
import { CallStreams } from './call-stream.route';

/** A connection whose finals resolve only when the test says (`finish`). */
function connect(socket = new FakeStreamSocket()) {
  const pending: Array<() => void> = [];
  const context = strictDouble<ContextService>({
    interim: () => 'scheduled',
    build: () => new Promise<ContextBundle>((resolve) => pending.push(() => resolve(EMPTY_BUNDLE))),
  });
  const identity = { caller: 'key:a', callId: 'c1', contactUid: 'ctc', scope: undefined };
  const stats = { pushed: 0, dropped: 0, confirmed: 0, fresh: 0 };
  const sut = new CallStreamConnection(
    socket,
    identity,
    'r',
    { context, endCall: jest.fn(), remember: jest.fn() },
    stats,
  );
  const finish = async () => {
    pending.shift()?.();
    await jest.advanceTimersByTimeAsync(0);
  };
  return { sut, socket, pending, finish };
}

describe('CallStreamConnection against hostile clients', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('answers pings within the frame budget, and a ping flood closes with 4429', () => {
    const { socket } = connect();
    for (let i = 0; i < MAX_FRAMES_PER_SECOND * 4; i++) {
      socket.emit('ping');
    }
    expect(socket.pongs).toBe(MAX_FRAMES_PER_SECOND);
    expect(socket.closedWith).toEqual({ code: 4429, reason: 'stream_rate_limited' });
  });

  it('pings and messages share one budget', () => {
    const { socket } = connect();
    for (let i = 0; i < MAX_FRAMES_PER_SECOND; i++) {
      socket.emit('ping');
    }
    socket.frame({ type: 'interim', transcript: 'one more' });
    expect(socket.closedWith?.code).toBe(STREAM_CLOSE.stream_rate_limited);
  });

  it('a client that never answers the close frame is cut after CLOSE_GRACE_MS (ws would wait 30 s)', async () => {
    const { socket } = connect();
    socket.frame({ type: 'final', transcript: 5 });
    socket.frame([]);
    expect(socket.closedWith?.code).toBe(STREAM_CLOSE.bad_frame);
    expect(socket.terminated).toBe(false);
    await jest.advanceTimersByTimeAsync(CLOSE_GRACE_MS);
    expect(socket.terminated).toBe(true);
  });

  it('a client that stops reading gets no error answers queued: it is closed with 4413', () => {
    const { socket } = connect();
    socket.bufferedAmount = MAX_BUFFERED_BYTES + 1;
    const sent = socket.sent.length;
    socket.frame({ type: 'final', transcript: 5 });
    expect(socket.sent.length).toBe(sent);
    expect(socket.closedWith).toEqual({ code: 4413, reason: 'slow_consumer' });
  });

  it('a ping from a client that stops reading gets no pong queued: 4413', () => {
    const { socket } = connect();
    socket.bufferedAmount = MAX_BUFFERED_BYTES + 1;
    socket.emit('ping');
    expect(socket.pongs).toBe(0);
    expect(socket.closedWith?.reason).toBe('slow_consumer');
  });

  it(`builds at most ${MAX_FINALS_IN_FLIGHT} finals at once; the others are answered stream_busy`, async () => {
    const { socket, pending, finish } = connect();
    for (let seq = 1; seq <= 5; seq++) {
      socket.frame({ type: 'final', transcript: `turn ${seq}`, seq });
    }
    await jest.advanceTimersByTimeAsync(0);
    expect(pending).toHaveLength(MAX_FINALS_IN_FLIGHT);
    const busy = socket.sent.filter((m) => m.type === 'error');
    expect(busy.map((m) => m.seq)).toEqual([3, 4, 5]);
    expect(busy[0]).toMatchObject({ problem: { error: 'stream_busy', status: 429 } });
    await finish();
    socket.frame({ type: 'final', transcript: 'turn 6', seq: 6 });
    await jest.advanceTimersByTimeAsync(0);
    expect(pending).toHaveLength(MAX_FINALS_IN_FLIGHT);
    expect(socket.sent.at(-1)).toMatchObject({ type: 'bundle', seq: 1 });
  });

  it(`takes ${FINALS_BURST} finals at once, then one a second: the rest are answered stream_finals_rate_limited, unbuilt`, async () => {
    const { socket, pending, finish } = connect();
    const built: number[] = [];
    const send = async (seq: number) => {
      socket.frame({ type: 'final', transcript: `turn ${seq}`, seq });
      await jest.advanceTimersByTimeAsync(0);
      if (pending.length > 0) {
        built.push(seq);
        await finish();
      }
    };
    for (let seq = 1; seq <= FINALS_BURST + 2; seq++) {
      await send(seq);
    }
    expect(built).toEqual(Array.from({ length: FINALS_BURST }, (_, i) => i + 1));
    const refused = socket.sent.filter((m) => m.type === 'error');
    expect(refused.map((m) => m.seq)).toEqual([FINALS_BURST + 1, FINALS_BURST + 2]);
    expect(refused[0]).toMatchObject({
      problem: { error: 'stream_finals_rate_limited', status: 429 },
    });
    expect(socket.closedWith).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1000);
    await send(10);
    await send(11);
    expect(built.slice(FINALS_BURST)).toEqual([10]);
  });

  it(`one caller's streams build at most ${MAX_CALLER_FINALS_IN_FLIGHT} finals at once, the next wait; another caller's go on`, async () => {
    const callers = new CallerFinals();
    const pending: Array<() => void> = [];
    const context = strictDouble<ContextService>({
      build: () =>
        new Promise<ContextBundle>((resolve) => pending.push(() => resolve(EMPTY_BUNDLE))),
    });
    const stream = (caller: string, callId: string) => {
      const socket = new FakeStreamSocket();
      const identity = { caller, callId, contactUid: 'c', scope: undefined };
      const stats = { pushed: 0, dropped: 0, confirmed: 0, fresh: 0 };
      new CallStreamConnection(
        socket,
        identity,
        'r',
        { context, endCall: jest.fn(), remember: jest.fn() },
        stats,
        callers,
      );
      return socket;
    };
    const greedy = [1, 2, 3].map((n) => stream('key:greedy', `g${n}`));
    greedy.forEach((socket) => {
      socket.frame({ type: 'final', transcript: 'one', seq: 1 });
      socket.frame({ type: 'final', transcript: 'two', seq: 2 });
    });
    const other = stream('key:other', 'o1');
    other.frame({ type: 'final', transcript: 'mine', seq: 1 });
    await jest.advanceTimersByTimeAsync(0);
    // Four of greedy's six building, and the other caller's one.
    expect(pending).toHaveLength(MAX_CALLER_FINALS_IN_FLIGHT + 1);
    expect(greedy.flatMap((s) => s.sent).filter((m) => m.type === 'error')).toEqual([]);
    // Each answer lets one waiting final start: all six are answered in the end.
    while (pending.length > 0) {
      pending.shift()?.();
      await jest.advanceTimersByTimeAsync(0);
      expect(pending.length).toBeLessThanOrEqual(MAX_CALLER_FINALS_IN_FLIGHT + 1);
    }
    expect(greedy.map((s) => s.sent.filter((m) => m.type === 'bundle').length)).toEqual([2, 2, 2]);
  });

  it('pings every STREAM_PING_MS and cuts a peer that did not answer the last one', () => {
    const { socket } = connect();
    jest.advanceTimersByTime(STREAM_PING_MS);
    expect(socket.pings).toBe(1);
    socket.answersPings = false;
    socket.frame({ type: 'interim', transcript: 'keeps the stream from idling' });
    jest.advanceTimersByTime(STREAM_PING_MS);
    expect(socket.pings).toBe(2);
    expect(socket.closedWith).toBeUndefined();
    jest.advanceTimersByTime(STREAM_PING_MS);
    expect(socket.closedWith).toEqual({ code: 4408, reason: 'pong_timeout' });
    expect(socket.terminated).toBe(true);
  });

  it('shutdown: the final in flight is answered, then 1001; new frames are not taken', async () => {
    const { sut, socket, pending, finish } = connect();
    socket.frame({ type: 'final', transcript: 'last turn', seq: 1 });
    await jest.advanceTimersByTimeAsync(0);
    sut.drain();
    expect(socket.closedWith).toBeUndefined();
    socket.frame({ type: 'final', transcript: 'too late', seq: 2 });
    await jest.advanceTimersByTimeAsync(0);
    expect(pending).toHaveLength(1);
    await finish();
    expect(socket.sent.at(-1)).toMatchObject({ type: 'bundle', seq: 1 });
    expect(socket.closedWith).toEqual({ code: 1001, reason: 'shutting_down' });
  });

  it('shutdown: streams still open after SHUTDOWN_DRAIN_MS are cut', async () => {
    const config = {
      server: { shutdownDrainMs: 2000 },
      security: { corsOrigins: [] },
    } as unknown as AppConfig;
    const sut = new CallStreams(config, { countUnguarded: jest.fn() });
    const context = strictDouble<ContextService>({ build: () => new Promise(() => undefined) });
    const identity = (callId: string) => ({
      caller: 'k',
      callId,
      contactUid: 'c',
      scope: undefined,
    });
    const [idle, busy] = [new FakeStreamSocket(), new FakeStreamSocket()];
    sut.attach(idle, identity('idle'), 'r1', { context, endCall: jest.fn(), remember: jest.fn() });
    sut.attach(busy, identity('busy'), 'r2', { context, endCall: jest.fn(), remember: jest.fn() });
    busy.frame({ type: 'final', transcript: 'a turn that never ends', seq: 1 });
    await jest.advanceTimersByTimeAsync(0);
    let drained = false;
    const closing = sut.closeAll().then(() => (drained = true));
    expect(idle.closedWith).toEqual({ code: 1001, reason: 'shutting_down' });
    expect(busy.closedWith).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1999);
    expect([idle.terminated, drained]).toEqual([false, false]);
    await jest.advanceTimersByTimeAsync(1);
    await closing;
    // The idle one's client never answered its close: cut as well.
    expect([idle.terminated, busy.terminated]).toEqual([true, true]);
  });

  it('refuses an upgrade from an Origin CORS_ORIGINS does not list; no Origin is no browser', () => {
    const streams = (corsOrigins: string[]) =>
      new CallStreams({ security: { corsOrigins } } as unknown as AppConfig, {
        countUnguarded: jest.fn(),
      });
    expect(streams([]).allowsOrigin(undefined)).toBe(true);
    expect(streams([]).allowsOrigin('https://evil.example')).toBe(false);
    expect(streams([]).allowsOrigin('null')).toBe(false);
    expect(streams(['https://agent.example']).allowsOrigin('https://agent.example')).toBe(true);
    expect(streams(['https://agent.example']).allowsOrigin('https://agent.example.evil')).toBe(
      false,
    );
    expect(streams(['*']).allowsOrigin('https://any.example')).toBe(true);
  });
});
