/** One server-sent event: its `data` lines joined with newlines, and its `event` name. */
export interface SseMessage {
  data: string;
  event: string;
}

/**
 * An incremental parser for the `text/event-stream` format (WHATWG HTML §9.2.6), fed
 * decoded text in whatever pieces the network delivers. `EventSource` cannot POST, so the
 * widget reads `fetch`'s body itself and needs these rules: any line ending (CRLF, LF, CR,
 * even split across pieces), `:` comments, a blank line dispatches, one leading space of a
 * value is dropped, and an event without data is not dispatched.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private started = false;

  /** Feeds the next piece of text; returns the events it completed. */
  push(text: string): SseMessage[] {
    if (!this.started && text.length > 0) {
      this.started = true;
      text = text.replace(/^\uFEFF/, ''); // a BOM is allowed only at the very start
    }
    this.buffer += text;
    const out: SseMessage[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const ch = this.buffer[i];
      if (ch !== '\n' && ch !== '\r') {
        continue;
      }
      // A CR at the end of the buffer may be the first half of a CRLF: wait for more.
      if (ch === '\r' && i === this.buffer.length - 1) {
        break;
      }
      this.line(this.buffer.slice(start, i), out);
      if (ch === '\r' && this.buffer[i + 1] === '\n') {
        i++;
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  /** The stream ended: a trailing event without its blank line is discarded, as the spec says. */
  end(): SseMessage[] {
    const out: SseMessage[] = [];
    if (this.buffer === '\r') {
      this.line('', out);
    }
    this.buffer = '';
    this.data = [];
    this.event = '';
    return out;
  }

  private line(line: string, out: SseMessage[]): void {
    if (line === '') {
      if (this.data.length > 0) {
        out.push({ data: this.data.join('\n'), event: this.event || 'message' });
      }
      this.data = [];
      this.event = '';
      return;
    }
    if (line.startsWith(':')) {
      return;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) {
      value = value.slice(1);
    }
    if (field === 'data') {
      this.data.push(value);
    } else if (field === 'event') {
      this.event = value;
    }
    // `id` and `retry` only matter for EventSource's reconnection, which a POST never does.
  }
}

/**
 * Reads a fetch body as server-sent events, yielding each as soon as its frame is complete
 * (not when the body ends): that is what lets the answer render token by token.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        break;
      }
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    yield* parser.push(decoder.decode());
    yield* parser.end();
  } finally {
    // Cancelling (not just releasing) tells fetch we are done, e.g. when the consumer stops.
    await reader.cancel().catch(() => undefined);
  }
}
