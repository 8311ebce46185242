/**
 * The `data:` payloads of a server-sent-events body, one per event. Multi-line data is
 * joined with `\n` (the SSE spec); comments and other fields are skipped.
 */
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      buffer = buffer.replace(/\r\n?/g, '\n');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const data = dataOf(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (data !== undefined) {
          yield data;
        }
      }
      if (done) {
        const data = dataOf(buffer);
        if (data !== undefined) {
          yield data;
        }
        return;
      }
    }
  } finally {
    // Stops the download when the consumer breaks out of the loop early.
    await reader.cancel().catch(() => undefined);
  }
}

function dataOf(frame: string): string | undefined {
  const lines = frame
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5));
  return lines.length > 0 ? lines.join('\n') : undefined;
}
