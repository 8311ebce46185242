import { currentScopeSetting } from '@app/database';

import { strictDouble } from '../../../test/support/doubles';
import { FakeStreamSocket as FakeSocket } from '../../../test/support/fake-stream-socket';
import { type ContextBundle } from '../../context/context.dto';
import { type ContextService } from '../../context/context.service';
import { type AssembledEvidence } from '../../context/evidence/evidence-assembler';
import { PreparedEvidence } from '../../context/speculative/prepared-evidence';
import { CallStreamConnection } from './call-stream.connection';
import { MAX_BUFFERED_BYTES, STREAM_CLOSE, STREAM_IDLE_MS } from './call-stream.protocol';
import { type StreamStats } from './call-stream.socket';

const evidence = (content: string): AssembledEvidence =>
  ({ excerpts: [{ content }], token_count: 3 }) as unknown as AssembledEvidence;

const bundleOf = (assembled: AssembledEvidence): ContextBundle =>
  ({
    contact: { live_fields_available: false },
    historical_excerpts: assembled.excerpts,
    token_count: assembled.token_count,
    meta: { speculative: true },
  }) as unknown as ContextBundle;

describe('CallStreamConnection', () => {
  let socket: FakeSocket;
  let stats: StreamStats;
  let prepared: ((p: PreparedEvidence) => void) | undefined;
  let finalBundle: ContextBundle;
  let sut: CallStreamConnection;

  beforeEach(() => {
    jest.useFakeTimers();
    socket = new FakeSocket();
    stats = { pushed: 0, dropped: 0, confirmed: 0, fresh: 0 };
    const context = strictDouble<ContextService>({
      interim: (_request, _scope, _caller, onPrepared) => {
        prepared = onPrepared;
        return 'scheduled';
      },
      build: () => Promise.resolve(finalBundle),
    });
    const identity = { caller: 'key:a', callId: 'c1', contactUid: 'ctc', scope: undefined };
    sut = new CallStreamConnection(
      socket,
      identity,
      'req-1',
      { context, endCall: jest.fn(), remember: jest.fn() },
      stats,
    );
  });

  afterEach(() => jest.useRealTimers());

  const push = (content: string) => {
    const p = new PreparedEvidence('q', undefined, 100, evidence(content));
    prepared?.(p);
    return p;
  };

  it('pushes ready evidence, and confirms it on a final that was served from it', async () => {
    socket.frame({ type: 'interim', transcript: 'my espresso machine' });
    const p = push('kept');
    expect(socket.sent.at(-1)).toMatchObject({ type: 'speculative', bundle_id: 1 });
    finalBundle = bundleOf(p.assembled);
    socket.frame({ type: 'final', transcript: 'my espresso machine leaks', seq: 4 });
    await jest.advanceTimersByTimeAsync(0);
    expect(socket.sent.at(-1)).toMatchObject({ type: 'confirmed', seq: 4, bundle_id: 1 });
    expect(socket.sent.at(-1)).not.toHaveProperty('historical_excerpts');
  });

  it('answers a whole bundle when the final’s evidence differs from what was pushed', async () => {
    socket.frame({ type: 'interim', transcript: 'my espresso machine' });
    push('stale');
    finalBundle = bundleOf(evidence('fresh'));
    socket.frame({ type: 'final', transcript: 'my sofa', seq: 5 });
    await jest.advanceTimersByTimeAsync(0);
    expect(socket.sent.at(-1)).toMatchObject({ type: 'bundle', seq: 5, bundle_id: 2 });
    expect(stats).toMatchObject({ confirmed: 0, fresh: 1 });
  });

  it('drops a speculative update the socket cannot take, rather than buffering it', () => {
    socket.frame({ type: 'interim', transcript: 'my espresso machine' });
    socket.bufferedAmount = MAX_BUFFERED_BYTES + 1;
    const sent = socket.sent.length;
    push('dropped');
    expect(socket.sent.length).toBe(sent);
    expect(stats.dropped).toBe(1);
    socket.bufferedAmount = 0;
    push('next');
    expect(socket.sent.at(-1)).toMatchObject({ type: 'speculative', bundle_id: 1 });
  });

  it('closes a client that does not read its finals’ answers (slow consumer)', async () => {
    finalBundle = bundleOf(evidence('x'));
    socket.bufferedAmount = MAX_BUFFERED_BYTES + 1;
    socket.frame({ type: 'final', transcript: 'hello there', seq: 1 });
    await jest.advanceTimersByTimeAsync(0);
    expect(socket.closedWith).toEqual({
      code: STREAM_CLOSE.slow_consumer,
      reason: 'slow_consumer',
    });
  });

  it('closes an idle stream, and any frame keeps it open', () => {
    jest.advanceTimersByTime(STREAM_IDLE_MS - 1);
    socket.frame({ type: 'interim', transcript: 'still here' });
    jest.advanceTimersByTime(STREAM_IDLE_MS - 1);
    expect(socket.closedWith).toBeUndefined();
    jest.advanceTimersByTime(1);
    expect(socket.closedWith).toEqual({ code: STREAM_CLOSE.stream_idle, reason: 'stream_idle' });
  });

  it("runs a bound key's frames in its database scope (row-level security), others unbound", async () => {
    const seen: string[] = [];
    const scoped = (scope?: string[]) => {
      const context = strictDouble<ContextService>({
        interim: () => {
          seen.push(currentScopeSetting());
          return 'scheduled';
        },
        build: () => {
          seen.push(currentScopeSetting());
          return Promise.resolve(bundleOf(evidence('x')));
        },
      });
      const identity = { caller: 'key:b', callId: 'c2', contactUid: 'ctc', scope };
      const boundSocket = new FakeSocket();
      new CallStreamConnection(
        boundSocket,
        identity,
        'req-2',
        { context, endCall: jest.fn(), remember: jest.fn() },
        stats,
      );
      return boundSocket;
    };
    const bound = scoped(['loc_b']);
    bound.frame({ type: 'interim', transcript: 'my espresso machine' });
    bound.frame({ type: 'final', transcript: 'my espresso machine leaks', seq: 1 });
    scoped(undefined).frame({ type: 'final', transcript: 'hello there', seq: 1 });
    await jest.advanceTimersByTimeAsync(0);
    expect(seen).toEqual(['{"loc_b"}', '{"loc_b"}', '*']);
  });

  it('closes with the reason’s code and sends nothing after', () => {
    sut.close('shutting_down');
    expect(socket.closedWith).toEqual({ code: 1001, reason: 'shutting_down' });
    const sent = socket.sent.length;
    socket.frame({ type: 'interim', transcript: 'too late' });
    expect(socket.sent.length).toBe(sent);
  });
});
