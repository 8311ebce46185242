import { connect, type Socket } from 'node:net';

import { bootTestApp } from './support/app';

/** A raw client that has sent part of a request and keeps the socket open. */
async function partialRequest(url: string, head: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(head);
  return socket;
}

const closed = (socket: Socket) =>
  new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', resolve)));

/**
 * Shutdown (SIGTERM runs the same close): requests in flight get SHUTDOWN_DRAIN_MS, then every
 * socket still open is closed. Before, a client trickling its headers held Fastify's close,
 * and the process, until Node's requestTimeout (120 s, checked every 30 s): past any grace
 * period an orchestrator gives.
 */
describe('shutdown with clients that never finish their requests', () => {
  it('closes the sockets still open after the drain window, and the app finishes closing', async () => {
    const t = await bootTestApp({ SHUTDOWN_DRAIN_MS: '200' });
    const headers = await partialRequest(
      t.url,
      'POST /search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n',
    );
    const body = await partialRequest(
      t.url,
      'POST /search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 5000\r\n\r\n{"query":"',
    );

    // On the old code this never resolves within the test's time (the sockets hold it).
    await t.close();

    await Promise.all([closed(headers), closed(body)]);
    expect(headers.destroyed && body.destroyed).toBe(true);
  }, 60_000);
});
