import { type ResourceLimits, Worker } from 'node:worker_threads';

import { DomainError } from '@app/common';

import type { RedactionResult, RedactorOptions } from '../redactor';
import { REDACTION_WORKER_SOURCE } from './redaction-worker-source';

/** Every worker is busy and the queue is full (503): the caller may retry shortly. */
export class RedactionBusyError extends DomainError {
  constructor(queued: number) {
    super('redaction_busy', `${queued} large redactions already waiting; retry shortly.`, 503, {
      retry_after_s: 1,
    });
  }
}

export interface RedactionPoolOptions {
  /** Worker threads (default 1: the main thread keeps the other core). */
  size?: number;
  /** Texts waiting for a worker before new ones are refused (default 16). */
  maxQueue?: number;
  /**
   * OS priority (nice) of the workers' threads (default 0). A background pool at a higher
   * nice yields the cores to live requests under contention and runs at full speed otherwise.
   */
  nice?: number;
  /** V8 heap limits of each worker (default {@link REDACTION_WORKER_LIMITS}). */
  resourceLimits?: ResourceLimits;
  redactor: RedactorOptions;
}

/**
 * A worker's heap bounds. A redaction holds one text of at most 64 Ki characters and its
 * matches, a few MB; without limits V8 sized the worker's young generation for a large heap
 * and a worker took ~115 MB of RSS after a flood of 60 KB texts (docs/benchmarks.md).
 */
export const REDACTION_WORKER_LIMITS: ResourceLimits = {
  maxYoungGenerationSizeMb: 8,
  maxOldGenerationSizeMb: 96,
};

interface Job {
  id: number;
  texts: readonly string[];
  resolve: (results: RedactionResult[]) => void;
  reject: (error: Error) => void;
}

interface Reply {
  /** The worker's first message: the nice its thread runs at, and its V8 heap limit. */
  nice?: number;
  heapLimitMb?: number;
  id?: number;
  results?: RedactionResult[];
  error?: string;
}

/**
 * Redacts on worker threads, so a large text never holds the event loop: the main thread
 * only posts the text and gets the result back. Workers start on first use and are
 * restarted if one dies; the queue is bounded, and past it calls fail fast with
 * {@link RedactionBusyError} rather than pile up.
 */
export class RedactionPool {
  private readonly size: number;
  private readonly maxQueue: number;
  private readonly idle: Worker[] = [];
  private readonly running = new Map<Worker, Job>();
  private readonly queue: Job[] = [];
  private readonly workerInfo = new Map<Worker, { nice: number; heapLimitMb: number }>();
  private started = 0;
  private nextId = 0;
  private closed = false;

  constructor(private readonly options: RedactionPoolOptions) {
    this.size = Math.max(1, options.size ?? 1);
    this.maxQueue = Math.max(0, options.maxQueue ?? 16);
  }

  /** Redacts `text` on a worker. @throws RedactionBusyError when the queue is full. */
  async redact(text: string): Promise<RedactionResult> {
    const [result] = await this.redactAll([text]);
    return result;
  }

  /**
   * Redacts `texts` on one worker in one hand-off (a caller's bundle is one job), results in
   * input order. @throws RedactionBusyError when the queue is full.
   */
  redactAll(texts: readonly string[]): Promise<RedactionResult[]> {
    if (this.closed) {
      return Promise.reject(new Error('RedactionPool is closed'));
    }
    if (this.queue.length >= this.maxQueue && this.idle.length === 0 && this.started >= this.size) {
      return Promise.reject(new RedactionBusyError(this.queue.length));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, texts, resolve, reject });
      this.dispatch();
    });
  }

  /** The nice each started worker reported for its thread (empty until one has). */
  get workerNice(): number[] {
    return [...this.workerInfo.values()].map((w) => w.nice);
  }

  /** The V8 heap limit (MB) each started worker reported. */
  get workerHeapLimitMb(): number[] {
    return [...this.workerInfo.values()].map((w) => w.heapLimitMb);
  }

  /** Stops every worker; queued and running calls fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) {
      job.reject(new Error('RedactionPool is closed'));
    }
    const workers = [...this.idle, ...this.running.keys()];
    this.idle.length = 0;
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.started < this.size ? this.spawn() : undefined);
      if (!worker) {
        return;
      }
      const job = this.queue.shift()!;
      this.running.set(worker, job);
      worker.ref(); // a pending call keeps the process alive, like any other I/O
      worker.postMessage({ id: job.id, texts: job.texts });
    }
  }

  private spawn(): Worker {
    this.started++;
    const worker = new Worker(REDACTION_WORKER_SOURCE, {
      eval: true,
      resourceLimits: this.options.resourceLimits ?? REDACTION_WORKER_LIMITS,
      workerData: {
        redactorPath: require.resolve('../redactor'),
        registerPath: require.resolve('@swc-node/register'),
        options: this.options.redactor,
        nice: this.options.nice ?? 0,
      },
    });
    worker.on('message', (reply: Reply) => {
      if (reply.id === undefined) {
        this.workerInfo.set(worker, { nice: reply.nice ?? 0, heapLimitMb: reply.heapLimitMb ?? 0 });
        return;
      }
      const job = this.running.get(worker);
      this.running.delete(worker);
      if (job && job.id === reply.id) {
        if (reply.results) {
          job.resolve(reply.results);
        } else {
          job.reject(new Error(`Redaction failed in a worker (${reply.error ?? 'unknown'})`));
        }
      }
      if (!this.closed) {
        worker.unref(); // an idle pool never keeps the process alive
        this.idle.push(worker);
        this.dispatch();
      }
    });
    worker.on('error', () => this.retire(worker));
    worker.on('exit', () => this.retire(worker));
    return worker;
  }

  /** A worker that died: fail its job, forget it, and let the next call start another. */
  private retire(worker: Worker): void {
    const idle = this.idle.indexOf(worker);
    if (idle === -1 && !this.running.has(worker)) {
      return; // already retired (error is followed by exit)
    }
    if (idle !== -1) {
      this.idle.splice(idle, 1);
    }
    const job = this.running.get(worker);
    this.running.delete(worker);
    this.workerInfo.delete(worker);
    this.started--;
    job?.reject(new Error('A redaction worker stopped'));
    if (!this.closed) {
      this.dispatch();
    }
  }
}
