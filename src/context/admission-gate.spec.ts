import { AdmissionGate } from './admission-gate';

describe('AdmissionGate', () => {
  it('admits up to the bound, then queues FIFO and admits as slots free up', async () => {
    const sut = new AdmissionGate(2);
    const a = await sut.acquire(0);
    const b = await sut.acquire(0);
    expect(a && b).toBeTruthy();
    const order: string[] = [];
    const c = sut.acquire(1000).then((r) => (order.push('c'), r));
    const d = sut.acquire(1000).then((r) => (order.push('d'), r));
    expect(sut.load).toEqual({ inFlight: 2, waiting: 2 });
    a?.();
    a?.(); // releasing twice frees one slot only
    await c;
    expect(sut.load).toEqual({ inFlight: 2, waiting: 1 });
    b?.();
    expect(await d).toBeDefined();
    expect(order).toEqual(['c', 'd']);
  });

  it('sheds a request that cannot start within its wait budget', async () => {
    const sut = new AdmissionGate(1);
    await sut.acquire(0);
    expect(await sut.acquire(0)).toBeUndefined();
    expect(await sut.acquire(5)).toBeUndefined();
    expect(sut.load).toEqual({ inFlight: 1, waiting: 0 });
  });

  it('refuses at once past its waiting bound', async () => {
    const sut = new AdmissionGate(1, 1);
    const first = await sut.acquire(0);
    const waiting = sut.acquire(1000);
    expect(await sut.acquire(1000)).toBeUndefined(); // old code: a second waiter queued
    first?.();
    expect(await waiting).toBeDefined();
  });
});
