import { SlotQueue } from './slot-queue';

describe('SlotQueue', () => {
  it('hands out at most its slots and serves waiters first in, first out', () => {
    const queue = new SlotQueue(1);
    const first = queue.tryTake();
    expect(first).toBeDefined();
    expect(queue.tryTake()).toBeUndefined();

    const order: string[] = [];
    const releases: Array<() => void> = [];
    queue.wait((release) => {
      order.push('a');
      releases.push(release);
    });
    queue.wait((release) => {
      order.push('b');
      releases.push(release);
    });
    expect(queue.load).toEqual({ inUse: 1, waiting: 2 });

    first!();
    expect(order).toEqual(['a']);
    releases[0]();
    expect(order).toEqual(['a', 'b']);
    expect(queue.load).toEqual({ inUse: 1, waiting: 0 });
  });

  it('counts a release once however often it is called', () => {
    const queue = new SlotQueue(2);
    const release = queue.tryTake()!;
    queue.tryTake();
    release();
    release();
    expect(queue.load.inUse).toBe(1);
  });

  it('takes a waiter back out, and says so only while it still waits', () => {
    const queue = new SlotQueue(1);
    const held = queue.tryTake()!;
    let granted = 0;
    const leaveEarly = queue.wait(() => granted++);
    expect(leaveEarly()).toBe(true);
    const leaveLate = queue.wait(() => granted++);
    held();
    expect(granted).toBe(1);
    expect(leaveLate()).toBe(false);
    expect(queue.load).toEqual({ inUse: 1, waiting: 0 });
  });
});
