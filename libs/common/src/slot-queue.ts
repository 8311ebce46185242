/**
 * A counted set of slots with a first-in, first-out queue of waiters. The callers decide how
 * a waiter gives up (a timeout, an abort signal); this class only hands slots out in order
 * and takes a waiter back out of the queue.
 */
export class SlotQueue {
  private inUse = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly slots: number) {}

  /** A release function when a slot is free now, else `undefined`. */
  tryTake(): (() => void) | undefined {
    if (this.inUse >= this.slots) {
      return undefined;
    }
    this.inUse++;
    return this.releaser();
  }

  /**
   * Queues `onSlot`, called with a release function when a slot frees up. The returned
   * function takes the waiter out of the queue; it answers false when the slot was already
   * handed over (the waiter then owns it).
   */
  wait(onSlot: (release: () => void) => void): () => boolean {
    const admit = () => {
      this.inUse++;
      onSlot(this.releaser());
    };
    this.waiting.push(admit);
    return () => {
      const i = this.waiting.indexOf(admit);
      if (i < 0) {
        return false;
      }
      this.waiting.splice(i, 1);
      return true;
    };
  }

  get load(): { inUse: number; waiting: number } {
    return { inUse: this.inUse, waiting: this.waiting.length };
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) {
        return;
      }
      released = true;
      this.inUse--;
      this.waiting.shift()?.();
    };
  }
}
