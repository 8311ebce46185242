/**
 * The OS priority of every background pool's threads (embedding and redaction workers): a
 * flood's work yields to live requests under CPU contention, one rule for both pools.
 */
export const BACKGROUND_THREAD_NICE = 10;

/**
 * Worker-thread source (plain JavaScript, spliced into a worker's `eval` source) that lowers
 * the thread's own OS priority to `workerData.nice` and leaves the priority it got in `nice`.
 * Linux keeps nice per thread, so a background pool's work yields to live requests under CPU
 * contention; where that is not possible (another OS) the thread runs at normal priority.
 */
export const LOWER_THREAD_PRIORITY_SOURCE = `
let nice = 0;
if (workerData.nice) {
  try {
    const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
    require('node:os').setPriority(tid, workerData.nice);
    nice = require('node:os').getPriority(tid);
  } catch {}
}
`;
