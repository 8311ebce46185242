import { AsyncLocalStorage } from 'node:async_hooks';

const background = new AsyncLocalStorage<true>();

/**
 * Runs `work` (and everything it starts) as background work: shared resources that know
 * priorities (the embedded database's statement queue) let live requests (`/context`) go
 * ahead of it. For routes whose callers can wait a little: `/chat` streams, MCP batches.
 */
export function inBackground<T>(work: () => T): T {
  return background.run(true, work);
}

/** Whether the work running now was started by {@link inBackground}. */
export function isBackgroundWork(): boolean {
  return background.getStore() === true;
}
