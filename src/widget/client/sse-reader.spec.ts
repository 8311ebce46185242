import { readSse, SseParser } from './sse-reader';

/** A body that delivers exactly these pieces, as the network might split them. */
function body(pieces: Array<string | Uint8Array>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) {
        controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
      }
      controller.close();
    },
  });
}

async function collect(pieces: Array<string | Uint8Array>) {
  const out: Array<{ data: string; event: string }> = [];
  for await (const message of readSse(body(pieces))) {
    out.push(message);
  }
  return out;
}

describe('SseParser', () => {
  it('dispatches an event at each blank line, not before', () => {
    const sut = new SseParser();
    expect(sut.push('data: {"type":"chunk"')).toEqual([]);
    expect(sut.push(',"text":"Hi"}\n')).toEqual([]);
    expect(sut.push('\n')).toEqual([{ data: '{"type":"chunk","text":"Hi"}', event: 'message' }]);
  });

  it('accepts CRLF, LF and CR line endings, including a CRLF split across pieces', () => {
    const sut = new SseParser();
    const events = [
      ...sut.push('data: a\r\n\r\ndata: b\n\ndata: c\r\r'),
      ...sut.push('data: d\r'),
      ...sut.push('\n\r\n'),
    ];
    expect(events.map((e) => e.data)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('joins multi-line data, drops one leading space only, and skips comments', () => {
    const sut = new SseParser();
    const events = sut.push(': keep-alive\ndata:  two spaces\ndata:none\nevent: note\n\n');
    expect(events).toEqual([{ data: ' two spaces\nnone', event: 'note' }]);
  });

  it('ignores events without data and fields it does not know', () => {
    const sut = new SseParser();
    expect(sut.push('event: ping\n\nid: 7\nretry: 10\nfoo: bar\n\n')).toEqual([]);
  });

  it('strips a byte-order mark at the start of the stream only', () => {
    const sut = new SseParser();
    expect(sut.push('\uFEFFdata: x\n\n')).toEqual([{ data: 'x', event: 'message' }]);
    expect(sut.push('data: \uFEFFy\n\n')).toEqual([{ data: '\uFEFFy', event: 'message' }]);
  });

  it('discards a final event that never got its blank line', () => {
    const sut = new SseParser();
    expect(sut.push('data: complete\n\ndata: cut off')).toHaveLength(1);
    expect(sut.end()).toEqual([]);
  });
});

describe('readSse', () => {
  it('yields each event as its frame completes, across arbitrary splits', async () => {
    const frames = 'data: {"type":"chunk","text":"Hello "}\n\ndata: {"type":"done"}\n\n';
    // Every split point of the stream gives the same events.
    for (let i = 1; i < frames.length; i++) {
      const events = await collect([frames.slice(0, i), frames.slice(i)]);
      expect(events.map((e) => JSON.parse(e.data) as unknown)).toEqual([
        { type: 'chunk', text: 'Hello ' },
        { type: 'done' },
      ]);
    }
  });

  it('decodes a multi-byte character split between two reads', async () => {
    const bytes = new TextEncoder().encode('data: café ☕\n\n');
    const cut = bytes.indexOf(0xe2) + 1; // inside the three bytes of ☕
    const events = await collect([bytes.slice(0, cut), bytes.slice(cut)]);
    expect(events).toEqual([{ data: 'café ☕', event: 'message' }]);
  });

  it('delivers the first event before the body has ended', async () => {
    let push!: (text: string) => void;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => controller.enqueue(new TextEncoder().encode(text));
      },
    });
    const sut = readSse(stream);
    push('data: first\n\n');
    await expect(sut.next()).resolves.toEqual({
      done: false,
      value: { data: 'first', event: 'message' },
    });
    await sut.return(undefined); // stopping early cancels the body
  });
});
