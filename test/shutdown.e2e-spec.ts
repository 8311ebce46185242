import { connect, type Socket } from 'node:net';

import { bootTestApp, postJson } from './support/app';

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
    // A served request first: the embedder's and PGlite's worker threads have compiled their
    // WASM before the close stops them (V8 has crashed a process whose workers were
    // terminated mid-compile, nodejs/node#64500; CI's jest worker died so once).
    expect((await postJson(`${t.url}/search`, { query: 'warranty on my kettle' })).status).toBe(
      200,
    );
    const headers = await partialRequest(
      t.url,
      'POST /search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n',
    );
    const body = await partialRequest(
      t.url,
      'POST /search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 5000\r\n\r\n{"query":"',
    );

    // On the old code this never resolves within the test's time (the trickled headers hold
    // it). In production the process exits once the close has finished.
    await t.close();

    await closed(headers);
    expect(headers.destroyed).toBe(true);
    body.destroy();
  }, 60_000);
});
