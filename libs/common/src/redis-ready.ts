/** The part of an ioredis client that a readiness wait needs (keeps ioredis out of common). */
export interface ConnectionEvents {
  readonly status: string;
  once(event: 'ready', listener: () => void): unknown;
  off(event: 'ready', listener: () => void): unknown;
}

/**
 * Resolves true once `client` is connected, or false after `timeoutMs`; never rejects, and
 * leaves no listener or timer behind, so a boot can wait a bounded time for Redis.
 */
export function waitUntilReady(client: ConnectionEvents, timeoutMs: number): Promise<boolean> {
  if (client.status === 'ready') {
    return Promise.resolve(true);
  }
  return new Promise((resolve) => {
    const onReady = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      client.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    timer.unref();
    client.once('ready', onReady);
  });
}
