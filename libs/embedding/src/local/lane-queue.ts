import { type EmbeddingLane } from '../interfaces/embedding-provider.interface';

export { type EmbeddingLane };

/** One text waiting for a worker. */
export interface QueuedText {
  text: string;
  signal?: AbortSignal;
}

/** Batches above this size stop getting cheaper per text and only add queueing delay. */
export const MAX_BATCH = 32;
/**
 * Characters of bulk text per batch: about 250 words, ~150–200 ms of one worker. A live query
 * that finds every worker busy with bulk waits at most this long.
 */
export const BULK_BATCH_CHARS = 1500;
/** Live traffic counts as present for this long after the last query. */
export const QUERY_QUIET_MS = 2000;

/**
 * The embedder's two lanes. Queries (`/context`, `/search`, `/chat`) always go first; bulk
 * work (ingest, webhooks) runs in small batches and, while live traffic is present, leaves one
 * worker free, so an ingest at full speed cannot push a live query past its deadline.
 */
export class LaneQueue<T extends QueuedText> {
  private readonly query: T[] = [];
  private readonly bulk: T[] = [];
  private lastQueryAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = () => performance.now()) {}

  get length(): number {
    return this.query.length + this.bulk.length;
  }

  push(item: T, lane: EmbeddingLane): void {
    if (lane === 'query') {
      this.query.push(item);
      this.lastQueryAt = this.now();
    } else {
      this.bulk.push(item);
    }
  }

  /** Removes and returns the items whose caller stopped waiting. */
  takeAborted(): T[] {
    return [this.query, this.bulk].flatMap((lane) => {
      const aborted = lane.filter((item) => item.signal?.aborted);
      aborted.forEach((item) => lane.splice(lane.indexOf(item), 1));
      return aborted;
    });
  }

  /** The next batch for one of `idle` idle workers (of `total`), or undefined to leave it idle. */
  next(idle: number, total: number): T[] | undefined {
    if (this.query.length > 0) {
      // Split a burst fairly across the idle workers so every core works on it.
      const share = Math.ceil(this.query.length / idle);
      return this.query.splice(0, Math.min(MAX_BATCH, share));
    }
    if (this.bulk.length === 0) {
      return undefined;
    }
    const live = this.now() - this.lastQueryAt < QUERY_QUIET_MS;
    if (live && total > 1 && idle <= 1) {
      return undefined; // the last free worker is kept for the next live query
    }
    let count = 0;
    let chars = 0;
    while (count < Math.min(MAX_BATCH, this.bulk.length)) {
      chars += this.bulk[count].text.length;
      if (count > 0 && chars > BULK_BATCH_CHARS) {
        break;
      }
      count++;
    }
    return this.bulk.splice(0, count);
  }

  /** Everything still queued (shutdown). */
  takeAll(): T[] {
    return [...this.query.splice(0), ...this.bulk.splice(0)];
  }
}
