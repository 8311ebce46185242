import { request as httpRequest } from 'node:http';

/** A server message of the call stream (a JSON object with `type`). */
export type StreamMessage = { type: string } & Record<string, unknown>;

/**
 * A real WebSocket client (Node's own, undici) on a call stream: every message received is
 * kept, and `next` waits for the first unread one matching.
 */
export class StreamClient {
  readonly received: StreamMessage[] = [];
  private read = 0;
  private waiters: (() => void)[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;

  constructor(
    url: string,
    headers: Record<string, string> = {},
    readonly socket = new WebSocket(url, { headers }),
  ) {
    this.opened = new Promise((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error('stream failed')), { once: true });
    });
    this.closed = new Promise((resolve) =>
      socket.addEventListener('close', (e) => resolve({ code: e.code, reason: e.reason })),
    );
    socket.addEventListener('message', (e) => {
      this.received.push(JSON.parse(String(e.data)) as StreamMessage);
      this.waiters.splice(0).forEach((wake) => wake());
    });
    void this.closed.then(() => this.waiters.splice(0).forEach((wake) => wake()));
  }

  send(event: unknown): void {
    this.socket.send(typeof event === 'string' ? event : JSON.stringify(event));
  }

  /** The next unread message of one of `types` (earlier unread ones of other types are skipped). */
  async next(types: string[], ms = 30_000): Promise<StreamMessage> {
    const deadline = Date.now() + ms;
    for (;;) {
      while (this.read < this.received.length) {
        const message = this.received[this.read++];
        if (types.includes(message.type)) {
          return message;
        }
      }
      if (this.socket.readyState >= WebSocket.CLOSING || Date.now() > deadline) {
        throw new Error(
          `no ${types.join('/')} message (got ${this.received.map((m) => m.type).join(',')})`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.socket.close();
  }
}

/** An upgrade refused before it happened: the HTTP status and problem body it answered. */
export function refusedUpgrade(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...headers,
      },
    });
    req.on('upgrade', () => reject(new Error('the upgrade was accepted')));
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}
