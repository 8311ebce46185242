import { DomainError } from '@app/common';

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
/**
 * A live batch's texts times its longest text's characters, at most (one text always goes).
 * A batch pads every text to its longest, and the worker's WASM memory grows to the largest
 * batch it has run and never shrinks: 32 texts of 2,000 characters took one worker from 200
 * to 480 MB of RSS, 4 of them to 270 MB. Short queries still batch 32 at a time.
 */
export const MAX_PADDED_CHARS = 8000;
/** Live traffic counts as present for this long after the last query. */
export const QUERY_QUIET_MS = 2000;
/**
 * `/context` traffic counts as present for this long after its last query; meanwhile the
 * other live routes and bulk work leave one worker to it (a `/chat` flood measured 3.3× the
 * quiet `/context` p99 when its batches could hold every worker).
 */
export const CONTEXT_QUIET_MS = 2000;

/**
 * Texts that may wait in each live lane. A queued query costs ~10 ms of a worker, so a full
 * lane is seconds of backlog that no live deadline survives: past it a caller is refused at
 * once (503 `embedder_busy`) instead of queueing. `/context` has its own, larger share and goes
 * first; `/search`, `/chat`, MCP and `/relevance` share the other, so a flood of those can
 * fill only their own share.
 */
export const LANE_CAPACITY: Record<Exclude<EmbeddingLane, 'bulk'>, number> = {
  context: 256,
  query: 64,
};

/** The lane a live query waits in had no room for its texts (503). */
export class EmbedderBusyError extends DomainError {
  constructor(lane: EmbeddingLane) {
    super(
      'embedder_busy',
      `The embedder's ${lane} queue is full (${lane === 'bulk' ? 'unbounded' : LANE_CAPACITY[lane]} texts); retry shortly.`,
      503,
      { retry_after_s: 1 },
    );
  }
}

/**
 * The embedder's lanes. Live queries go first, `/context` before the other routes, which
 * leave it one worker while it is calling; bulk work (ingest, webhooks) runs in small batches
 * and, while live traffic is present, leaves one worker free, so an ingest at full speed
 * cannot push a live query past its deadline. The
 * live lanes are bounded ({@link LANE_CAPACITY}); bulk is bounded by ingest admission.
 */
export class LaneQueue<T extends QueuedText> {
  private readonly lanes: Record<EmbeddingLane, T[]> = { context: [], query: [], bulk: [] };
  private lastQueryAt = Number.NEGATIVE_INFINITY;
  private lastContextAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = () => performance.now()) {}

  get length(): number {
    return this.lanes.context.length + this.lanes.query.length + this.lanes.bulk.length;
  }

  /** Whether `/context` has queried within {@link CONTEXT_QUIET_MS}. */
  get contextLive(): boolean {
    return this.now() - this.lastContextAt < CONTEXT_QUIET_MS;
  }

  /** Texts waiting in `lane`. */
  queued(lane: EmbeddingLane): number {
    return this.lanes[lane].length;
  }

  /** Whether `count` more texts fit in `lane`. */
  hasRoom(lane: EmbeddingLane, count: number): boolean {
    return lane === 'bulk' || this.lanes[lane].length + count <= LANE_CAPACITY[lane];
  }

  /** Queues `item`; check {@link hasRoom} first: pushing past a live lane's capacity throws. */
  push(item: T, lane: EmbeddingLane): void {
    if (!this.hasRoom(lane, 1)) {
      throw new EmbedderBusyError(lane);
    }
    this.lanes[lane].push(item);
    if (lane !== 'bulk') {
      this.lastQueryAt = this.now();
    }
    if (lane === 'context') {
      this.lastContextAt = this.lastQueryAt;
    }
  }

  /** Removes and returns the items whose caller stopped waiting; one pass over each lane. */
  takeAborted(): T[] {
    const aborted: T[] = [];
    for (const lane of Object.values(this.lanes)) {
      let kept = 0;
      for (const item of lane) {
        if (item.signal?.aborted) {
          aborted.push(item);
        } else {
          lane[kept++] = item;
        }
      }
      lane.length = kept;
    }
    return aborted;
  }

  /** The next batch for one of `idle` idle workers (of `total`), or undefined to leave it idle. */
  next(idle: number, total: number): T[] | undefined {
    const context = this.lanes.context;
    if (context.length > 0) {
      return context.splice(0, this.share(context, idle));
    }
    // While /context is calling, the last free worker waits for its next query.
    const spare = this.contextLive && total > 1 ? idle - 1 : idle;
    const query = this.lanes.query;
    if (query.length > 0) {
      return spare > 0 ? query.splice(0, this.share(query, spare)) : undefined;
    }
    const bulk = this.lanes.bulk;
    if (bulk.length === 0) {
      return undefined;
    }
    const live = this.now() - this.lastQueryAt < QUERY_QUIET_MS;
    if (live && total > 1 && idle <= 1) {
      return undefined; // the last free worker is kept for the next live query
    }
    let count = 0;
    let chars = 0;
    while (count < Math.min(MAX_BATCH, bulk.length)) {
      chars += bulk[count].text.length;
      if (count > 0 && chars > BULK_BATCH_CHARS) {
        break;
      }
      count++;
    }
    return bulk.splice(0, count);
  }

  /**
   * Split a burst fairly across the idle workers so every core works on it, and cut the batch
   * where its padded size would pass {@link MAX_PADDED_CHARS}.
   */
  private share(lane: T[], idle: number): number {
    const fair = Math.min(MAX_BATCH, Math.ceil(lane.length / idle));
    let longest = 0;
    for (let count = 0; count < fair; count++) {
      longest = Math.max(longest, lane[count].text.length);
      if (count > 0 && (count + 1) * longest > MAX_PADDED_CHARS) {
        return count;
      }
    }
    return fair;
  }

  /** Everything still queued (shutdown). */
  takeAll(): T[] {
    return Object.values(this.lanes).flatMap((lane) => lane.splice(0));
  }
}
