import { type IncomingMessage } from 'node:http';

import { BACKGROUND_DUTY, BackgroundPacer, LiveTraffic, sleep } from '@app/common';
import { type CallHandler, type ExecutionContext } from '@nestjs/common';
import { defer, lastValueFrom } from 'rxjs';

import { IngestSlot, IngestSlotInterceptor, slots } from './ingest-slot';

describe('IngestSlotInterceptor', () => {
  afterEach(() => jest.useRealTimers());

  /** An admitted request (its slot taken) and the count of slots still held. */
  function admitted(held: { count: number }): ExecutionContext {
    const raw = {} as IncomingMessage;
    held.count++;
    slots.set(raw, new IngestSlot(() => held.count--));
    return {
      switchToHttp: () => ({ getRequest: () => ({ raw }) }),
    } as unknown as ExecutionContext;
  }

  it('while /context calls are present, paces ingestions in their slot: the next waits 3x the last', async () => {
    jest.useFakeTimers({ now: 0 });
    const live = new LiveTraffic(() => Date.now());
    const sut = new IngestSlotInterceptor(new BackgroundPacer(live));
    const held = { count: 0 };
    const starts: number[] = [];
    const handler: CallHandler = {
      handle: () =>
        defer(async () => {
          starts.push(Date.now());
          await sleep(100); // an ingestion of 100 ms
          return { inserted: 1 };
        }),
    };
    const leave = live.enter(); // a /context call in flight
    const first = lastValueFrom(sut.intercept(admitted(held), handler));
    await jest.advanceTimersByTimeAsync(100);
    await expect(first).resolves.toEqual({ inserted: 1 });
    expect(held.count).toBe(0); // the work's end freed its slot

    const second = lastValueFrom(sut.intercept(admitted(held), handler));
    const rest = 100 * (1 / BACKGROUND_DUTY - 1);
    await jest.advanceTimersByTimeAsync(rest - 1);
    expect(starts).toEqual([0]);
    expect(held.count).toBe(1); // waiting its pace in its slot: a parallel upload gets 429
    await jest.advanceTimersByTimeAsync(101);
    await expect(second).resolves.toEqual({ inserted: 1 });
    expect(starts).toEqual([0, 100 + rest]);
    expect(held.count).toBe(0);
    leave();
  });
});
