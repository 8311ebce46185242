import type * as Threads from 'node:worker_threads';

import { Database } from '@app/database';

import { loadConfig } from '../src/config/load-config';

// The module object itself (an `import *` would be a copy): the code under test reads
// `Worker` from it when it starts a worker.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const threads = require('node:worker_threads') as typeof Threads;
const RealWorker = threads.Worker;

/** The database worker's page cache, as the engine reports it. */
async function sharedBuffers(options: ConstructorParameters<typeof Database>[0]) {
  const sut = new Database(options);
  await sut.open(8);
  try {
    return (await sut.query<{ shared_buffers: string }>('SHOW shared_buffers'))[0].shared_buffers;
  } finally {
    await sut.close();
  }
}

/**
 * The embedded engine's memory bounds (issue 37: the service's RSS under bench:abuse). Its
 * page cache lives in the worker's WASM memory, which grows to what the engine has touched
 * and never shrinks; Postgres's 128 MB default was most of it.
 */
describe('the embedded engine keeps its memory bounded', () => {
  // 32 MB saved WASM memory but cost ~16% CPU per /context on the demo store (issue 37's
  // hot-path line): the default is Postgres's own again, and the setting bounds it.
  it("runs with Postgres's 128 MB page cache by default", async () => {
    await expect(sharedBuffers({ dataDir: 'memory://' })).resolves.toBe('128MB');
  });

  it('takes PGLITE_SHARED_BUFFERS_MB from the environment', async () => {
    const config = loadConfig({ PGLITE_SHARED_BUFFERS_MB: '16' });
    expect(config.storage.database.pgliteSharedBuffersMb).toBe(16);
    await expect(sharedBuffers(config.storage.database)).resolves.toBe('16MB');
  });

  it.each(['0', '4', '-8', '4097', '1.5', '16MB', 'abc'])(
    'refuses PGLITE_SHARED_BUFFERS_MB=%j at boot',
    (value) => {
      expect(() => loadConfig({ PGLITE_SHARED_BUFFERS_MB: value })).toThrow(
        /PGLITE_SHARED_BUFFERS_MB/,
      );
    },
  );

  it("bounds the worker thread's V8 young generation", async () => {
    const started: Threads.Worker[] = [];
    const spy = jest
      .spyOn(threads, 'Worker')
      .mockImplementation((source: string | URL, options?: Threads.WorkerOptions) => {
        const worker = new RealWorker(source, options);
        started.push(worker);
        return worker;
      });
    const sut = new Database({ dataDir: 'memory://' });
    try {
      await sut.open(8);
    } finally {
      spy.mockRestore();
    }
    try {
      expect(started).toHaveLength(1);
      // The limits as the running thread sees them (0: V8's default, sized for a large heap).
      expect(started[0].resourceLimits?.maxYoungGenerationSizeMb).toBe(16);
    } finally {
      await sut.close();
    }
  });
});
