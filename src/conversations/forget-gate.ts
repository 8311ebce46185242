import { BackgroundPacer, backgroundPacer, sleep } from '@app/common';
import { Injectable, Optional } from '@nestjs/common';

import { TooManyRequestsError } from '../auth/auth.errors';
import { CallerShares } from '../common/caller-shares';
import { AdmissionGate } from '../context/admission-gate';

/**
 * Forgets running at once per process. Each holds a lock session and a pooled connection and
 * keeps Postgres backends and the main thread busy; fifty at once took the cores live
 * `/context` needs (docs/benchmarks.md, bench:abuse). Two keep a contact's erasure within
 * about a second while leaving the rest of a pool of 10 to live reads.
 */
export const FORGET_MAX_INFLIGHT = 2;
/**
 * Forgets that may wait for a slot. A waiting forget is a promise and a socket, no work, so
 * the bound is about memory: past it one is refused (after {@link FORGET_REFUSAL_HOLD_MS}).
 */
export const FORGET_MAX_WAITING = 64;
/**
 * How long a forget waits for a slot. Held rather than refused at once: a flood that is
 * answered at once comes straight back, and the refusals then cost more than the work.
 */
export const FORGET_WAIT_MS = 2000;
/**
 * A refusal past the waiting bound is held this long before it is sent: a flood answered at
 * once comes straight back, and a 429 loop costs the main thread more than a timer.
 */
export const FORGET_REFUSAL_HOLD_MS = 500;
export const FORGET_RETRY_AFTER_S = 1;

/**
 * Forgets one location-bound key (by its scope) may hold, running or waiting: half the
 * slots, so one tenant's burst never fills the queue another tenant's erasure waits in.
 */
export const FORGET_TENANT_SHARE = FORGET_MAX_INFLIGHT / 2;

/**
 * Too many forgets already running or waiting (429 `forget_busy`, Retry-After). The message
 * gives no counts: they would tell a tenant how many forgets the others run.
 */
export class ForgetBusyError extends TooManyRequestsError {
  constructor() {
    super(
      'forget_busy',
      `The forgets this replica (or this key) may run at once are running and queued; retry in ${FORGET_RETRY_AFTER_S} s.`,
      FORGET_RETRY_AFTER_S,
    );
  }
}

/**
 * Bounds the HTTP forgets in flight, so a burst of them is a background share of the box:
 * two at a time, and while `/context` calls are present each admitted forget also waits its
 * pace ({@link BackgroundPacer}): at full speed fifty looping clients forgot ~55 contacts a
 * second and doubled the live p50 on a 2-core box.
 */
@Injectable()
export class ForgetGate {
  private readonly gate = new AdmissionGate(FORGET_MAX_INFLIGHT, FORGET_MAX_WAITING);
  private readonly shares = new CallerShares(FORGET_TENANT_SHARE);
  /** `pacer`: the pace forgets keep (by default the one ingestions share). */
  constructor(@Optional() private readonly pacer: BackgroundPacer = backgroundPacer) {}

  /**
   * Runs `work` once admitted; `tenant` (a location-bound key's scope) holds at most
   * {@link FORGET_TENANT_SHARE}. @throws ForgetBusyError when no slot frees up in time.
   */
  async run<T>(work: () => Promise<T>, tenant?: string): Promise<T> {
    const share = tenant === undefined ? () => undefined : this.shares.take(tenant);
    if (!share) {
      await sleep(FORGET_REFUSAL_HOLD_MS);
      throw new ForgetBusyError();
    }
    try {
      const full = this.gate.load.waiting >= FORGET_MAX_WAITING;
      const release = await this.gate.acquire(FORGET_WAIT_MS);
      if (!release) {
        if (full) {
          await sleep(FORGET_REFUSAL_HOLD_MS);
        }
        throw new ForgetBusyError();
      }
      try {
        return await this.pacer.run(work);
      } finally {
        release();
      }
    } finally {
      share();
    }
  }

  get load(): { inFlight: number; waiting: number } {
    return this.gate.load;
  }
}
