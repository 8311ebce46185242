/** The part of an ioredis client that a readiness wait needs (a fake one will do in tests). */
export interface ConnectionEvents {
  readonly status: string;
  once(event: 'ready' | 'end', listener: () => void): unknown;
  off(event: 'ready', listener: () => void): unknown;
}

/** What a graceful close needs besides the events. */
export interface ClosableConnection extends ConnectionEvents {
  quit(): Promise<unknown>;
  disconnect(): void;
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

/**
 * QUIT when connected (pending replies arrive) and wait, at most 1 s, for the socket to
 * close, so shutdown leaves no open handle. When not connected, stop reconnecting and drop
 * the socket: ioredis emits no `end` from its reconnecting state, so there is nothing to await.
 */
export async function closeGracefully(client: ClosableConnection): Promise<void> {
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  const ended = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 1000);
    timer.unref();
    client.once('end', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  await client.quit().catch(() => client.disconnect());
  await ended;
}
