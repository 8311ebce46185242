import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

import { embeddingWorkerData } from './local-embedding.provider';
import { EMBEDDING_WORKER_SOURCE } from './worker-source';

describe('embedding worker start-up', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cb-worker-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads the model only once the WASM backend is up, even when reading it makes a tensor at once', async () => {
    // Reading the weights makes tensors; on a loaded box the model file can be read before the
    // WASM compile ends. A model source that makes a tensor before its first await is that race,
    // made certain.
    const real = embeddingWorkerData();
    const eagerSource = join(dir, 'eager-model-source.js');
    writeFileSync(
      eagerSource,
      `const core = require(${JSON.stringify(real.corePath)});
const real = require(${JSON.stringify(real.modelPath)});
exports.modelSource = async () => {
  core.tensor1d([1]).dispose();
  return real.modelSource();
};`,
    );
    const worker = new Worker(EMBEDDING_WORKER_SOURCE, {
      eval: true,
      workerData: embeddingWorkerData(eagerSource),
    });
    try {
      const reply = await new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(reply).toEqual({ ready: true, nice: 0 });
    } finally {
      await worker.terminate();
    }
  });
});
