/**
 * In-process mutual exclusion per key. Two rebuilds of one conversation (a webhook racing a
 * bulk ingest) must not interleave, or the later one could delete the windows the earlier
 * one just stored. Keys are taken in sorted order, so two callers cannot deadlock.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    const releases: Array<() => void> = [];
    try {
      for (const key of [...new Set(keys)].sort()) {
        releases.push(await this.acquire(key));
      }
      return await work();
    } finally {
      releases.forEach((release) => release());
    }
  }

  private async acquire(key: string): Promise<() => void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => held);
    this.tails.set(key, tail);
    await previous;
    return () => {
      release();
      if (this.tails.get(key) === tail) {
        this.tails.delete(key);
      }
    };
  }
}
