import { Readable } from 'node:stream';

import { MAX_RECORD_BYTES, RecordCounter } from './record-counter';

/** Streams `body` through the counter in `chunkSize`-byte chunks; the error code or 'ok'. */
async function count(format: 'ndjson' | 'json', body: string, max: number, chunkSize = 7) {
  const bytes = Buffer.from(body);
  const chunks = Array.from({ length: Math.ceil(bytes.length / chunkSize) }, (_, i) =>
    bytes.subarray(i * chunkSize, (i + 1) * chunkSize),
  );
  const sut = Readable.from(chunks).pipe(new RecordCounter(format, max));
  try {
    await sut.toArray();
    return 'ok';
  } catch (error) {
    return (error as { code: string }).code;
  }
}

describe('RecordCounter', () => {
  it('counts top-level array elements, not commas inside strings, escapes or nested values', async () => {
    const tricky = JSON.stringify({ t: 'a\\", [1,2], "b', n: [[1, 2], { x: ',' }] });
    const three = `[ ${tricky} ,\n${tricky},${tricky} ]`;
    expect(await count('json', three, 3)).toBe('ok');
    expect(await count('json', three, 2)).toBe('too_many_records');
    expect(await count('json', '[]', 0)).toBe('ok');
    expect(await count('json', '{"a":[1,2,3]}', 1)).toBe('ok');
  });

  it('counts non-blank NDJSON lines across chunk boundaries', async () => {
    const lines = '{"a":1}\n \r\n\n{"a":2}\r\n{"a":3}';
    expect(await count('ndjson', lines, 3, 1)).toBe('ok');
    expect(await count('ndjson', lines, 2, 1)).toBe('too_many_records');
  });

  it('refuses a line longer than a record can be, even split over many chunks', async () => {
    const long = `${'x'.repeat(MAX_RECORD_BYTES + 1)}\n`;
    expect(await count('ndjson', long, 10, 64 * 1024)).toBe('record_too_large');
  });
});
