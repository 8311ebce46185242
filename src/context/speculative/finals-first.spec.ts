import { AdmissionGate } from '../admission-gate';
import { type CallIdentity } from './call-sessions';
import { type CallTurns } from './call-turns';
import {
  FINALS_RATE_WINDOW_MS,
  FinalsFirst,
  MAX_FINALS_FOR_SPECULATION,
  SPECULATION_QUIET_MS,
} from './finals-first';

describe('FinalsFirst', () => {
  let gate: AdmissionGate;
  let yielded: Array<CallIdentity | undefined>;
  let sut: FinalsFirst;

  beforeEach(() => {
    jest.useFakeTimers();
    gate = new AdmissionGate(16);
    yielded = [];
    const calls = { yieldTo: (call?: CallIdentity) => yielded.push(call) };
    sut = new FinalsFirst(gate, calls as unknown as CallTurns);
  });

  afterEach(() => jest.useRealTimers());

  it('an arriving final makes other calls’ speculation yield, before it queues', () => {
    const call: CallIdentity = {
      caller: 'key:a',
      callId: 'c1',
      contactUid: 'ctc',
      scope: undefined,
    };
    sut.arrived(call);
    sut.arrived(undefined);
    expect(yielded).toEqual([call, undefined]);
  });

  it('is busy while a final is in flight and for the quiet time after, then idle', async () => {
    expect(sut.busy()).toBe(false);
    sut.arrived(undefined);
    const release = await gate.acquire(100);
    jest.advanceTimersByTime(SPECULATION_QUIET_MS * 3);
    expect(sut.busy()).toBe(true); // in flight, however long
    release?.();
    sut.left();
    jest.advanceTimersByTime(SPECULATION_QUIET_MS - 1);
    expect(sut.busy()).toBe(true);
    jest.advanceTimersByTime(2);
    expect(sut.busy()).toBe(false);
  });

  it('stays busy past the quiet time while finals come often, and frees once they slow', () => {
    for (let i = 0; i < MAX_FINALS_FOR_SPECULATION; i++) {
      sut.arrived(undefined);
      sut.left();
      jest.advanceTimersByTime(SPECULATION_QUIET_MS + 50);
    }
    // Each gap is past the quiet time, but three finals came within the window.
    expect(sut.busy()).toBe(true);
    jest.advanceTimersByTime(FINALS_RATE_WINDOW_MS);
    expect(sut.busy()).toBe(false);
    // Two finals a window apart never hold it past the quiet time.
    sut.arrived(undefined);
    sut.left();
    jest.advanceTimersByTime(SPECULATION_QUIET_MS + 1);
    expect(sut.busy()).toBe(false);
  });
});
