import { MemoryStateStore } from './memory-state.store';

/** A clock the test moves by hand, so TTL checks do not depend on wall time. */
function fakeClock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1_000;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe('MemoryStateStore', () => {
  it('is bounded in bytes too: huge call ids and tails evict before maxCalls is reached', async () => {
    const sut = new MemoryStateStore({ maxCalls: 10, ttlMs: 60_000 });
    for (let i = 0; i < 10; i++) {
      await sut.set(`call-${i}-`.padEnd(2_000, 'x'), 'y'.repeat(2_000), 60_000);
    }
    // ~8 KB each against ~1 KB a call: only the most recent one or two fit.
    expect(sut.size).toBeLessThan(3);
    await expect(sut.get('call-9-'.padEnd(2_000, 'x'))).resolves.toBe('y'.repeat(2_000));
  });

  it('returns what was set, until the TTL passes', async () => {
    const clock = fakeClock();
    const sut = new MemoryStateStore({ maxCalls: 10, ttlMs: 1000, perf: clock });
    await sut.set('call-1', 'my order number is', 1000);

    clock.advance(999);
    await expect(sut.get('call-1')).resolves.toBe('my order number is');
    clock.advance(2);
    await expect(sut.get('call-1')).resolves.toBeUndefined();
  });

  it('restarts the TTL on every write (an active call never expires)', async () => {
    const clock = fakeClock();
    const sut = new MemoryStateStore({ maxCalls: 10, ttlMs: 1000, perf: clock });
    await sut.set('call-1', 'a', 1000);
    clock.advance(800);
    await sut.set('call-1', 'b', 1000);
    clock.advance(800);
    await expect(sut.get('call-1')).resolves.toBe('b');
  });

  it('evicts the least recently used call beyond maxCalls', async () => {
    const sut = new MemoryStateStore({ maxCalls: 2, ttlMs: 60_000 });
    await sut.set('a', 'tail a', 60_000);
    await sut.set('b', 'tail b', 60_000);
    await sut.get('a'); // touch a: b is now the oldest
    await sut.set('c', 'tail c', 60_000);

    expect(sut.size).toBe(2);
    await expect(sut.get('b')).resolves.toBeUndefined();
    await expect(sut.get('a')).resolves.toBe('tail a');
    await expect(sut.get('c')).resolves.toBe('tail c');
  });

  it('deletes and clears on close', async () => {
    const sut = new MemoryStateStore({ maxCalls: 2, ttlMs: 60_000 });
    await sut.set('a', 'x', 60_000);
    await sut.delete('a');
    await expect(sut.get('a')).resolves.toBeUndefined();
    await sut.set('b', 'y', 60_000);
    await sut.close();
    expect(sut.size).toBe(0);
  });
});
