import { BACKGROUND_DUTY, BackgroundPacer, LiveTraffic, sleep } from '@app/common';

import { toErrorResponse } from '../common/error-body';
import { type ConversationMemory } from './conversation-memory.service';
import {
  FORGET_MAX_INFLIGHT,
  FORGET_MAX_WAITING,
  FORGET_REFUSAL_HOLD_MS,
  FORGET_TENANT_SHARE,
  FORGET_WAIT_MS,
  ForgetBusyError,
  ForgetGate,
} from './forget-gate';
import { type ForgetReport } from './forgotten-history';
import { HistoryController } from './history.controller';

const report: ForgetReport = {
  receipt_id: 'rcpt_1',
  location_uids: null,
  conversations: 0,
  windows_removed: 0,
  pending: false,
};

/** A memory whose forgets run until released, counting how many run at once. */
function hangingMemory() {
  const releases: Array<() => void> = [];
  let running = 0;
  let peak = 0;
  const memory = {
    forgetContact: jest.fn(async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise<void>((resolve) => releases.push(resolve));
      running--;
      return report;
    }),
  } as unknown as ConversationMemory;
  return { memory, releases, peak: () => peak };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('HistoryController forget admission (ForgetGate)', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('runs at most FORGET_MAX_INFLIGHT forgets at once; the rest wait their turn', async () => {
    const { memory, releases, peak } = hangingMemory();
    const sut = new HistoryController(memory, new ForgetGate());
    const calls = Array.from({ length: FORGET_MAX_INFLIGHT + 3 }, (_, i) =>
      sut.forget({ contact_uid: `ctc_${i}` }, undefined),
    );
    await flush();
    expect(memory.forgetContact).toHaveBeenCalledTimes(FORGET_MAX_INFLIGHT);
    while (
      (memory.forgetContact as jest.Mock).mock.calls.length < calls.length ||
      releases.length > 0
    ) {
      releases.shift()?.();
      await flush();
    }
    const answers = await Promise.all(calls);
    expect(answers.map((a) => a.contact_uid)).toEqual(calls.map((_, i) => `ctc_${i}`));
    expect(peak()).toBe(FORGET_MAX_INFLIGHT);
  });

  it('refuses a forget past the waiting bound with 429 forget_busy, held, while others run', async () => {
    jest.useFakeTimers();
    const { memory, releases } = hangingMemory();
    const sut = new HistoryController(memory, new ForgetGate());
    const admitted = Array.from({ length: FORGET_MAX_INFLIGHT + FORGET_MAX_WAITING }, (_, i) =>
      sut.forgetByBody({ contact_uid: `ctc_${i}` }, undefined),
    );
    await jest.advanceTimersByTimeAsync(0);
    let settled = false;
    const refused = sut
      .forget({ contact_uid: 'ctc_hostile' }, undefined)
      .catch((e: unknown) => e)
      .finally(() => (settled = true));
    // Held, not answered at once: a flood's 429 loop would cost more than the wait.
    await jest.advanceTimersByTimeAsync(FORGET_REFUSAL_HOLD_MS - 1);
    expect(settled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    const error = await refused;
    expect(error).toBeInstanceOf(ForgetBusyError);
    const [status, body] = toErrorResponse(error, 'req-1');
    expect(status).toBe(429);
    expect(body).toMatchObject({ error: 'forget_busy', details: { retry_after_s: 1 } });
    expect(memory.forgetContact).not.toHaveBeenCalledWith('ctc_hostile', undefined);
    // The admitted ones all finish: nothing was lost to the refusal.
    while ((memory.forgetContact as jest.Mock).mock.calls.length < admitted.length) {
      releases.splice(0).forEach((r) => r());
      await jest.advanceTimersByTimeAsync(0);
    }
    releases.splice(0).forEach((r) => r());
    await expect(Promise.all(admitted)).resolves.toHaveLength(admitted.length);
  });

  it('a location-bound key holds at most its share, waiting included; another tenant still runs (old: starved)', async () => {
    jest.useFakeTimers();
    const { memory, releases } = hangingMemory();
    const sut = new HistoryController(memory, new ForgetGate());
    const mine = Array.from({ length: FORGET_TENANT_SHARE }, (_, i) =>
      sut.forget({ contact_uid: `ctc_b${i}` }, ['loc_b']),
    );
    const extra = sut.forget({ contact_uid: 'ctc_b_extra' }, ['loc_b']).catch((e: unknown) => e);
    const other = sut.forget({ contact_uid: 'ctc_a' }, ['loc_a']);
    await jest.advanceTimersByTimeAsync(FORGET_REFUSAL_HOLD_MS);
    const refused = await extra;
    expect(refused).toBeInstanceOf(ForgetBusyError);
    // No counts of other tenants' forgets in what the refused caller reads.
    expect((refused as Error).message).not.toMatch(/\d+ (forget|waiting)/u);
    expect(memory.forgetContact).toHaveBeenCalledWith('ctc_a', ['loc_a']);
    expect(memory.forgetContact).not.toHaveBeenCalledWith('ctc_b_extra', ['loc_b']);
    releases.splice(0).forEach((r) => r());
    await expect(Promise.all([...mine, other])).resolves.toHaveLength(FORGET_TENANT_SHARE + 1);
  });

  it('gives up on a waiting forget after FORGET_WAIT_MS with forget_busy', async () => {
    jest.useFakeTimers();
    const { memory, releases } = hangingMemory();
    const sut = new HistoryController(memory, new ForgetGate());
    const running = Array.from({ length: FORGET_MAX_INFLIGHT }, (_, i) =>
      sut.forget({ contact_uid: `ctc_${i}` }, undefined),
    );
    const waiting = sut.forget({ contact_uid: 'ctc_late' }, undefined);
    const outcome = waiting.catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(FORGET_WAIT_MS - 1);
    expect(memory.forgetContact).toHaveBeenCalledTimes(FORGET_MAX_INFLIGHT);
    await jest.advanceTimersByTimeAsync(1);
    expect(await outcome).toMatchObject({ code: 'forget_busy', httpStatus: 429 });
    releases.splice(0).forEach((r) => r());
    await expect(Promise.all(running)).resolves.toHaveLength(FORGET_MAX_INFLIGHT);
    expect(memory.forgetContact).not.toHaveBeenCalledWith('ctc_late', undefined);
  });

  it('while /context calls are present, paces forgets: the next waits 3x the last one', async () => {
    jest.useFakeTimers({ now: 0 });
    const live = new LiveTraffic(() => Date.now());
    const starts: number[] = [];
    const memory = {
      forgetContact: jest.fn(async () => {
        starts.push(Date.now());
        await sleep(200); // a forget of 200 ms
        return report;
      }),
    } as unknown as ConversationMemory;
    const sut = new HistoryController(memory, new ForgetGate(new BackgroundPacer(live)));
    const leave = live.enter(); // a /context call in flight
    const first = sut.forget({ contact_uid: 'ctc_1' }, undefined);
    await jest.advanceTimersByTimeAsync(200);
    await first;
    const second = sut.forget({ contact_uid: 'ctc_2' }, undefined);
    const rest = 200 * (1 / BACKGROUND_DUTY - 1);
    await jest.advanceTimersByTimeAsync(rest - 1);
    expect(starts).toEqual([0]); // resting: the slot is free but the pace is not
    await jest.advanceTimersByTimeAsync(201);
    await second;
    expect(starts).toEqual([0, 200 + rest]);
    leave();
  });
});
