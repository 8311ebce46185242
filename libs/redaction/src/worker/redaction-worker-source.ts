import { LOWER_THREAD_PRIORITY_SOURCE } from '@app/common';

/**
 * Source of a redaction worker, run with `new Worker(source, { eval: true })`: the same
 * code from `dist/` and from ts sources (under jest or swc-node, where the redactor is a
 * `.ts` file and the worker registers swc first). Module paths arrive resolved from the
 * main thread.
 *
 * Protocol: the worker first posts `{ nice, heapLimitMb }` (its thread's OS priority and V8
 * heap limit); then main → worker
 * `{ id, texts }`; worker → main `{ id, results }` (in the order of `texts`) or `{ id, error }`
 * (a message only: redaction errors are bugs, never data).
 */
export const REDACTION_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
if (workerData.redactorPath.endsWith('.ts')) {
  require(workerData.registerPath);
}
// A background pool lowers its own thread's priority (Linux: nice is per thread, as in the
// embedding worker), so under contention an attacker's redactions yield to live requests.
${LOWER_THREAD_PRIORITY_SOURCE}const heapLimitMb = Math.round(require('node:v8').getHeapStatistics().heap_size_limit / 2 ** 20);
parentPort.postMessage({ nice, heapLimitMb });
const { Redactor } = require(workerData.redactorPath);
const redactor = new Redactor(workerData.options);
parentPort.on('message', ({ id, texts }) => {
  try {
    parentPort.postMessage({ id, results: texts.map((text) => redactor.redact(text)) });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.name) });
  }
});
`;
