import { LOWER_THREAD_PRIORITY_SOURCE } from '@app/common';

/**
 * Source of the embedding worker, run with `new Worker(source, { eval: true })`. Keeping it
 * as a string means the same code runs from `dist/`, from ts sources under jest, and from
 * the CLI, without a separate build step for a worker file. Module paths arrive resolved
 * from the main thread via `workerData`.
 */
export const EMBEDDING_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { ready } = require(workerData.corePath);
const { initModel } = require(workerData.embeddingsPath);
const { modelSource } = require(workerData.modelPath);

// A background worker lowers its own thread's OS priority (Linux: nice is per thread), so
// under CPU contention a flood's batches yield to /context's worker and the HTTP thread.
// Where that is not possible (another OS) it runs at normal priority.
${LOWER_THREAD_PRIORITY_SOURCE}
// initModel starts the WASM backend and reads the model side by side; reading the weights
// makes tensors, which throw "Backend 'wasm' has not yet been initialized" when the WASM
// compile is the slower of the two (a loaded box: every retry failed the same way in CI).
// The backend first, then the model.
ready()
  .then(() => initModel(modelSource))
  .then(
    (model) => {
      // The graph model keeps the weight file's bytes (for save()) after copying them into
      // the WASM backend's memory: ~28 MB per worker nobody reads again.
      if (model.model && model.model.artifacts) model.model.artifacts.weightData = undefined;
      parentPort.on('message', async ({ id, texts }) => {
        try {
          const vectors = await model.embed(texts);
          parentPort.postMessage({ id, vectors });
        } catch (error) {
          parentPort.postMessage({ id, error: String((error && error.message) || error) });
        }
      });
      parentPort.postMessage({ ready: true, nice });
    },
    (error) => parentPort.postMessage({ fatal: String((error && error.message) || error) }),
  );
`;
