import { type Worker } from 'node:worker_threads';

import { BACKGROUND_THREAD_NICE, DependencyError } from '@app/common';

import { waitUntil } from '../../../../test/support/wait';
import { LocalEmbeddingProvider, MAX_EMBED_CHARS } from './local-embedding.provider';

const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, i) => ((dot += x * b[i]), (na += x * x), (nb += b[i] * b[i])));
  return dot / Math.sqrt(na * nb);
};

describe('LocalEmbeddingProvider (real USE-lite model in worker threads)', () => {
  const sut = new LocalEmbeddingProvider({ workers: 1 });

  beforeAll(() => sut.init());
  afterAll(() => sut.close());

  it('embeds 512-d vectors that put paraphrases closer than unrelated text', async () => {
    const [a, b, c] = await sut.embedBatch([
      'When will my order arrive?',
      'What is the delivery date of my package?',
      'The mitochondria is the powerhouse of the cell.',
    ]);
    expect(a).toHaveLength(512);
    expect(cosine(a, b)).toBeGreaterThan(cosine(a, c) + 0.2);
  });

  it('gives the same vector whether a text is micro-batched with others or alone', async () => {
    const [alone] = await sut.embedBatch(['refund for a broken chair']);
    const batched = await Promise.all(
      ['x y z', 'refund for a broken chair', 'another text'].map((t) => sut.embedBatch([t])),
    );
    expect(cosine(alone, batched[1][0])).toBeGreaterThan(0.9999);
  });

  it("queues a bulk call shortest first and still answers in the caller's order", async () => {
    const texts = [
      'a much longer text about a sofa delivered to the wrong address last week',
      'sofa',
      'the sofa arrived late',
    ];
    const worker = [...(sut as unknown as { workers: Set<Worker> }).workers][0];
    const sent: string[] = [];
    const post = worker.postMessage.bind(worker);
    const spy = jest.spyOn(worker, 'postMessage').mockImplementation((message: unknown) => {
      sent.push(...(message as { texts: string[] }).texts);
      post(message);
    });
    let vectors: number[][];
    try {
      vectors = await sut.embedBatch(texts);
    } finally {
      spy.mockRestore();
    }
    const alone = await Promise.all(texts.map((t) => sut.embedBatch([t], undefined, 'query')));

    expect(sent).toEqual([texts[1], texts[2], texts[0]]);
    vectors.forEach((v, i) => expect(cosine(v, alone[i][0])).toBeGreaterThan(0.9999));
  });

  it('sends the model at most MAX_EMBED_CHARS of a text, past what it reads anyway', async () => {
    const worker = [...(sut as unknown as { workers: Set<Worker> }).workers][0];
    const sent = jest.spyOn(worker, 'postMessage');
    const head = 'my dining table arrived with a scratch on the top. '.repeat(60);
    const tail = 'an entirely different subject about invoices and tax. '.repeat(400);
    const [long, short] = await sut.embedBatch([`${head}${tail}`, head.slice(0, 600)]);
    const texts = sent.mock.calls.flatMap(([message]) => (message as { texts: string[] }).texts);
    sent.mockRestore();
    expect(Math.max(...texts.map((t) => t.length))).toBeLessThanOrEqual(MAX_EMBED_CHARS);
    // The model reads ~128 tokens: the cap changes no vector.
    expect(cosine(long, short)).toBeGreaterThan(0.9999);
  });

  it("bounds each worker's V8 young generation, and long texts still embed", async () => {
    const worker = [...(sut as unknown as { workers: Set<Worker> }).workers][0];
    // As the running thread sees it (0: V8's default, sized for a large heap).
    expect(worker.resourceLimits?.maxYoungGenerationSizeMb).toBe(16);
    const texts = Array.from({ length: 8 }, (_, i) => `order ${i} `.repeat(250));
    const vectors = await sut.embedBatch(texts, undefined, 'query');
    expect(vectors.map((v) => v.length)).toEqual(texts.map(() => 512));
    // (No bound on the whole heap here: the old generation holds the model, and how much of it
    // a GC has returned at any moment varies by machine; CI saw 73 MB where this box saw 40.)
  });

  it('drops queued texts whose caller aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(sut.embedBatch(['never needed'], controller.signal)).rejects.toMatchObject({
      code: 'embedding_aborted',
    });
  });

  it('fails the batch of a worker that dies, then recovers with a new worker', async () => {
    const worker = [...(sut as unknown as { workers: Set<Worker> }).workers][0];
    const pending = sut.embedBatch(['in flight when the worker dies']);
    await worker.terminate();
    await expect(pending).rejects.toMatchObject({ code: 'embedding_failed' });
    // The replacement loads the model in the background; wait for it, however long it takes.
    await waitUntil('a replacement worker', () => sut.liveWorkers > 0, 120_000);
    await expect(sut.embedBatch(['after recovery'])).resolves.toHaveLength(1);
  });

  it('retries a worker whose model failed to load, and gives up after three attempts', async () => {
    const loadFailure = new DependencyError('embedder_load_failed', 'The model failed to load: x');
    const start = jest.spyOn(
      LocalEmbeddingProvider.prototype as unknown as { startWorker(): Promise<void> },
      'startWorker',
    );
    const flaky = new LocalEmbeddingProvider({ workers: 1 });
    start.mockRejectedValueOnce(loadFailure);
    await expect(flaky.init()).resolves.toMatchObject({ dimension: 512 });
    expect(flaky.liveWorkers).toBe(1);
    await flaky.close();

    const broken = new LocalEmbeddingProvider({ workers: 1 });
    start.mockRejectedValue(loadFailure);
    await expect(broken.init()).rejects.toBe(loadFailure);
    expect(start).toHaveBeenCalledTimes(2 + 3);
    start.mockRestore();
    await broken.close();
  });
});

describe('LocalEmbeddingProvider worker priorities (issue 37)', () => {
  it('runs one worker at normal OS priority and the others niced, so floods yield under contention', async () => {
    const sut = new LocalEmbeddingProvider({ workers: 2 });
    await sut.init();
    try {
      const roles = sut.workerRoles.sort((a, b) => a.nice - b.nice);
      // Old code: every worker at the process's priority.
      expect(roles).toEqual([
        { role: 'foreground', nice: 0 },
        { role: 'background', nice: process.platform === 'linux' ? BACKGROUND_THREAD_NICE : 0 },
      ]);
      const [vector] = await sut.embedBatch(['where is my order'], undefined, 'context');
      expect(vector).toHaveLength(512);
    } finally {
      await sut.close();
    }
  }, 120_000);
});
