import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type NdjsonBatch, type NdjsonBatchOptions, NdjsonBatchReader } from './ndjson-batches';

describe('NdjsonBatchReader', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'cb-ndjson-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  const collect = async (file: string, options: NdjsonBatchOptions) => {
    const batches: NdjsonBatch[] = [];
    for await (const batch of new NdjsonBatchReader(file, options).batches()) {
      batches.push(batch);
    }
    return batches;
  };
  const messages = (n: number, perConversation = 1) =>
    Array.from({ length: n }, (_, i) => ({
      conversation_uid: `c${Math.floor(i / perConversation)}`,
      text: `message ${i} with a café ☕ so bytes and characters differ`,
    }));

  it('reads every record once, by file-wide index, across chunk boundaries and odd lines', async () => {
    const lines = [
      '{"n":0}',
      '',
      '{"n":1}\r',
      'not json',
      '   ',
      `{"n":2,"t":"${'é'.repeat(40)}"}`,
      '{"n":3}',
    ];
    // Tiny chunks split lines, and multi-byte characters, between reads.
    const file = write('odd.ndjson', lines.join('\n')); // no newline after the last line
    const sut = await collect(file, { records: 2, maxBytes: 1 << 20, chunkBytes: 7 });

    const records = sut.flatMap((b) => b.records);
    expect(records).toEqual([
      { n: 0 },
      { n: 1 },
      undefined,
      expect.objectContaining({ n: 2 }),
      { n: 3 },
    ]);
    expect(sut.map((b) => b.firstIndex)).toEqual([0, 2, 4]);
    expect(sut.flatMap((b) => b.failed.map((f) => f.index + b.firstIndex))).toEqual([2]);
    expect(sut.at(-1)?.endOffset).toBe(Buffer.byteLength(lines.join('\n')));
  });

  it('resumes at a batch end with exactly the records after it', async () => {
    const all = messages(50);
    const file = write('resume.ndjson', all.map((m) => `${JSON.stringify(m)}\n`).join(''));
    const first = await collect(file, { records: 8, maxBytes: 1 << 20, chunkBytes: 100 });
    const cut = first[2];

    const sut = await collect(file, {
      records: 8,
      maxBytes: 1 << 20,
      start: { offset: cut.endOffset, index: cut.firstIndex + cut.records.length },
    });

    expect(sut[0].firstIndex).toBe(24);
    expect(sut.flatMap((b) => b.records)).toEqual(all.slice(24));
  });

  it('keeps a conversation in one batch, up to twice the batch size', async () => {
    const file = write(
      'grouped.ndjson',
      messages(40, 5)
        .map((m) => `${JSON.stringify(m)}\n`)
        .join('') +
        messages(30, 30)
          .map((m) => `${JSON.stringify({ ...m, conversation_uid: 'long' })}\n`)
          .join(''),
    );
    const key = (r: unknown) => (r as { conversation_uid: string }).conversation_uid;

    const sut = await collect(file, { records: 8, maxBytes: 1 << 20, groupKey: key });

    const sizes = sut.map((b) => b.records.length);
    expect(sizes.slice(0, 4)).toEqual([10, 10, 10, 10]); // 8 reached mid-conversation: finish it
    expect(sizes.slice(4)).toEqual([16, 14]); // one conversation longer than 2 × 8 is cut
  });

  it('closes a batch at maxBytes whatever its record count', async () => {
    const file = write(
      'bytes.ndjson',
      messages(20)
        .map((m) => `${JSON.stringify(m)}\n`)
        .join(''),
    );
    const sut = await collect(file, { records: 1000, maxBytes: 300 });
    expect(sut.length).toBeGreaterThan(4);
    expect(sut.flatMap((b) => b.records)).toHaveLength(20);
  });

  it('never reads more than one batch plus its read-ahead while the consumer is busy', async () => {
    const line = `${JSON.stringify(messages(1)[0])}\n`;
    const file = write('big.ndjson', line.repeat(40_000)); // ~3 MB
    const sut = new NdjsonBatchReader(file, { records: 100, maxBytes: 1 << 20, chunkBytes: 4096 });

    let batches = 0;
    let maxAhead = 0;
    for await (const batch of sut.batches()) {
      batches++;
      // The consumer is "working": give the stream every chance to read on.
      for (let i = 0; i < 20; i++) {
        await new Promise(setImmediate);
      }
      maxAhead = Math.max(maxAhead, sut.bytesRead - batch.endOffset);
      expect(batch.records.length).toBeLessThanOrEqual(100);
    }

    expect(batches).toBe(400);
    expect(maxAhead).toBeLessThanOrEqual(sut.readAheadLimit + line.length);
  });
});
