import { type AdapterApp, bootAdapterApp, tenantB } from './support/adapter-fixtures';
import { OPCODE, RawWebSocket } from './support/raw-websocket';

/**
 * Shutdown with call streams open: a stream building a final answers it before its 1001, an
 * idle one closes at once, and one whose client never answers the closing handshake is cut
 * at SHUTDOWN_DRAIN_MS instead of holding the process for the WebSocket layer's 30 s.
 */
describe('call stream on shutdown (e2e)', () => {
  let a: AdapterApp;
  const open = async (callId: string) => {
    const socket = await RawWebSocket.open(a.t.url, `/calls/${callId}/stream?contact_uid=ctc_b1`, {
      authorization: `Bearer ${tenantB.key}`,
    });
    expect(socket.status).toBe(101);
    await socket.until(() => socket.messages.some((m) => m.type === 'ready'));
    return socket;
  };

  beforeAll(async () => {
    a = await bootAdapterApp({ CONTEXT_TIMEOUT_MS: '5000', SHUTDOWN_DRAIN_MS: '1500' });
  }, 120_000);
  afterAll(async () => {
    await a?.t.close().catch(() => undefined);
  });

  it('answers the final in flight, then 1001; cuts a client deaf to the close', async () => {
    const busy = await open('call_busy');
    const idle = await open('call_idle');
    const deaf = await open('call_deaf');
    // The deaf client takes the close frame into its kernel buffer but never answers it.
    deaf.stopReading();
    const release = a.liveFault.hold();
    busy.text({ type: 'final', transcript: 'espresso machine', seq: 1 });
    // Frames are taken in order: once this one's error is back, the final is in flight.
    busy.text({ type: 'final', transcript: 5, seq: 2 });
    await busy.until(() => busy.messages.some((m) => m.seq === 2));
    const closing = a.t.close();
    // (A raw client never answers the close: its socket ends only when the server cuts it.)
    await idle.until(() => idle.closeFrame !== undefined);
    expect(idle.closeFrame).toEqual({ code: 1001, reason: 'shutting_down' });
    expect(busy.closeFrame).toBeUndefined();
    release();
    await busy.until(() => busy.closeFrame !== undefined);
    const types = busy.frames.map((f) => (f.opcode === OPCODE.close ? 'close' : 'text'));
    expect(busy.messages.at(-1)).toMatchObject({ seq: 1 });
    expect(busy.messages.at(-1)?.type).not.toBe('error');
    expect(types.at(-1)).toBe('close');
    expect(busy.closeFrame).toEqual({ code: 1001, reason: 'shutting_down' });
    // Raw sockets never answer the close: each is cut at the end of the drain, and the app
    // (whose server waits for every socket) closes.
    await Promise.all([idle.ended, busy.ended]);
    await closing;
    deaf.destroy();
  });
});
