/**
 * Runs work at most `limit` at a time, in arrival order. Unlike the admission gates, which
 * shed what cannot start in time, nothing here is refused: it orders work already admitted
 * (one request's bounded batch).
 */
export class Semaphore {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) {
        next(); // the slot passes straight on
      } else {
        this.running--;
      }
    }
  }
}
