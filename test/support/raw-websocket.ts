import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/** RFC 6455 opcodes a hostile client sends. */
export const OPCODE = { continuation: 0, text: 1, binary: 2, close: 8, ping: 9, pong: 10 } as const;

/** A server frame as read off the wire (unmasked). */
export interface RawFrame {
  fin: boolean;
  opcode: number;
  payload: Buffer;
}

/** One masked client frame (RFC 6455 §5.2): any opcode, FIN set or not, any payload. */
export function clientFrame(opcode: number, payload: Buffer | string, fin = true): Buffer {
  const data = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const mask = randomBytes(4);
  const length = data.length;
  const head =
    length < 126
      ? Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | length])
      : length < 65536
        ? Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | 126, length >> 8, length & 255])
        : Buffer.concat([
            Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | 127]),
            (() => {
              const b = Buffer.alloc(8);
              b.writeBigUInt64BE(BigInt(length));
              return b;
            })(),
          ]);
  const masked = Buffer.alloc(length);
  for (let i = 0; i < length; i++) {
    masked[i] = data[i] ^ mask[i % 4];
  }
  return Buffer.concat([head, mask, masked]);
}

/**
 * A WebSocket client over a bare TCP socket, so a test can do what no library lets it: send
 * pings and fragments at will, send invalid UTF-8, and stop reading (the TCP window fills).
 */
export class RawWebSocket {
  readonly frames: RawFrame[] = [];
  /** The HTTP status line and headers of the handshake's answer. */
  handshake = '';
  readonly ended: Promise<void>;
  private buffer = Buffer.alloc(0);
  private upgraded = false;

  private constructor(readonly socket: Socket) {
    this.ended = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
  }

  /** Opens `path` on `url`'s host with `headers`; resolves once the server answered the handshake. */
  static async open(
    url: string,
    path: string,
    headers: Record<string, string> = {},
  ): Promise<RawWebSocket> {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    const raw = new RawWebSocket(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const lines = [
      `GET ${path} HTTP/1.1`,
      `host: ${hostname}:${port}`,
      'connection: Upgrade',
      'upgrade: websocket',
      'sec-websocket-version: 13',
      `sec-websocket-key: ${randomBytes(16).toString('base64')}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    await raw.until(() => raw.handshake !== '' || socket.destroyed);
    return raw;
  }

  get status(): number {
    return Number(/^HTTP\/1\.1 (\d{3})/.exec(this.handshake)?.[1] ?? 0);
  }

  /** Server text messages parsed as JSON. */
  get messages(): Array<Record<string, unknown>> {
    return this.frames
      .filter((f) => f.opcode === OPCODE.text)
      .map((f) => JSON.parse(f.payload.toString()) as Record<string, unknown>);
  }

  /** The server's close frame: its code and reason, if one arrived. */
  get closeFrame(): { code: number; reason: string } | undefined {
    const frame = this.frames.find((f) => f.opcode === OPCODE.close);
    return frame && frame.payload.length >= 2
      ? { code: frame.payload.readUInt16BE(0), reason: frame.payload.subarray(2).toString() }
      : undefined;
  }

  send(opcode: number, payload: Buffer | string, fin = true): boolean {
    return this.socket.write(clientFrame(opcode, payload, fin));
  }

  text(message: unknown): boolean {
    return this.send(OPCODE.text, typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Stops reading: the kernel's receive buffer, then the server's send buffer, fill up. */
  stopReading(): void {
    this.socket.pause();
  }

  destroy(): void {
    this.socket.destroy();
  }

  /** Polls `check` every 10 ms (no fixed sleep); fails after `ms`. */
  async until(check: () => boolean, ms = 30_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) {
        throw new Error('raw websocket: condition not met in time');
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  private onData(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    if (!this.upgraded) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) {
        return;
      }
      this.handshake = this.buffer.subarray(0, end).toString();
      this.buffer = this.buffer.subarray(end + 4);
      this.upgraded = this.status === 101;
      if (!this.upgraded) {
        return;
      }
    }
    for (;;) {
      if (this.buffer.length < 2) {
        return;
      }
      let length = this.buffer[1] & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (this.buffer.length < 4) {
          return;
        }
        length = this.buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (this.buffer.length < 10) {
          return;
        }
        length = Number(this.buffer.readBigUInt64BE(2));
        offset = 10;
      }
      if (this.buffer.length < offset + length) {
        return;
      }
      this.frames.push({
        fin: (this.buffer[0] & 0x80) !== 0,
        opcode: this.buffer[0] & 0x0f,
        payload: this.buffer.subarray(offset, offset + length),
      });
      this.buffer = this.buffer.subarray(offset + length);
    }
  }
}
