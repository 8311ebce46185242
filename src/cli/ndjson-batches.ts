import { createReadStream } from 'node:fs';

import { type IngestFailure } from '../ingest/ingest.dto';
import { parseNdjsonLine } from '../ingest/record-validation';

/** A run of consecutive NDJSON records, with where it ends in the file. */
export interface NdjsonBatch {
  /** Parsed records; an unusable line is `undefined` here and listed in `failed`. */
  records: unknown[];
  /** Unusable lines, indexed within this batch (as `validateRecords` expects). */
  failed: IngestFailure[];
  /** File-wide index of `records[0]`: non-blank lines before it, as `parseNdjson` counts. */
  firstIndex: number;
  /** Byte offset of the batch's first line. */
  startOffset: number;
  /** Byte offset just past the batch: where the next batch, or a resumed run, starts. */
  endOffset: number;
}

/** Where reading starts: the file's beginning, or a checkpoint's `endOffset`. */
export interface NdjsonPosition {
  offset: number;
  index: number;
}

export interface NdjsonBatchOptions {
  start?: NdjsonPosition;
  /** Records per batch. */
  records: number;
  /** A batch also closes once its lines reach this many bytes (a file of huge records). */
  maxBytes: number;
  /**
   * Records with the key of the record before them stay in its batch, up to twice `records`:
   * an export grouped by conversation then keeps each conversation in one batch, so its
   * windows are embedded once instead of once per batch it spans.
   */
  groupKey?: (record: unknown) => string | undefined;
  /** Read size. The stream buffers at most about this much ahead of the consumer. */
  chunkBytes?: number;
}

const NEWLINE = 0x0a;
const DEFAULT_CHUNK_BYTES = 64 * 1024;

/**
 * Reads an NDJSON file as batches without ever holding more than one batch (plus one record
 * and the stream's read-ahead of `chunkBytes`): the generator suspends at each batch and the
 * file stream pauses until the consumer asks for the next one, which is the back-pressure.
 * Offsets are bytes, so a batch's `endOffset` is a place a later run can seek to.
 */
export class NdjsonBatchReader {
  private stream?: ReturnType<typeof createReadStream>;

  constructor(
    private readonly file: string,
    private readonly options: NdjsonBatchOptions,
  ) {}

  /** Bytes taken from the file so far, counted from the start position. */
  get bytesRead(): number {
    return (this.options.start?.offset ?? 0) + (this.stream?.bytesRead ?? 0);
  }

  /**
   * How far the file may have been read past the batch handed out: the chunk being split
   * into lines, plus the stream's buffer (refilled while below one chunk, so under two).
   */
  get readAheadLimit(): number {
    return 3 * (this.options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  }

  async *batches(): AsyncGenerator<NdjsonBatch> {
    const { start, records: perBatch, maxBytes, groupKey } = this.options;
    const chunkBytes = this.options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
    this.stream = createReadStream(this.file, {
      start: start?.offset ?? 0,
      highWaterMark: chunkBytes,
    });
    let offset = start?.offset ?? 0; // file offset of the next unread byte of a line
    let batch = this.emptyBatch(start?.index ?? 0, offset);
    let batchBytes = 0;
    let lastKey: string | undefined;
    let partial: Buffer[] = [];

    /** Adds one complete line (ending at `lineEnd`); returns the batch it closed, if any. */
    const addLine = (bytes: Buffer, lineEnd: number): NdjsonBatch | undefined => {
      const line = bytes.toString('utf8');
      if (line.trim().length === 0) {
        if (batch.records.length === 0) {
          batch.startOffset = lineEnd;
        }
        batch.endOffset = lineEnd;
        return undefined;
      }
      const parsed = parseNdjsonLine(line);
      const record = 'record' in parsed ? parsed.record : undefined;
      const key = groupKey && record !== undefined ? groupKey(record) : undefined;
      const count = batch.records.length;
      const full =
        count > 0 &&
        (batchBytes >= maxBytes ||
          count >= 2 * perBatch ||
          (count >= perBatch && (key === undefined || key !== lastKey)));
      let closed: NdjsonBatch | undefined;
      if (full) {
        closed = batch;
        batch = this.emptyBatch(closed.firstIndex + count, closed.endOffset);
        batchBytes = 0;
      }
      if ('error' in parsed) {
        batch.failed.push({ index: batch.records.length, error: parsed.error });
      }
      batch.records.push(record);
      batch.endOffset = lineEnd;
      batchBytes += bytes.length;
      lastKey = key;
      return closed;
    };

    for await (const chunk of this.stream as AsyncIterable<Buffer>) {
      let from = 0;
      for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
        const piece = chunk.subarray(from, nl);
        const bytes = partial.length > 0 ? Buffer.concat([...partial, piece]) : piece;
        partial = [];
        offset += bytes.length + 1;
        from = nl + 1;
        const closed = addLine(bytes, offset);
        if (closed) {
          yield closed;
        }
      }
      if (from < chunk.length) {
        partial.push(chunk.subarray(from));
      }
    }
    if (partial.length > 0) {
      // A last line without a newline.
      const bytes = Buffer.concat(partial);
      const closed = addLine(bytes, offset + bytes.length);
      if (closed) {
        yield closed;
      }
    }
    if (batch.records.length > 0) {
      yield batch;
    }
  }

  private emptyBatch(firstIndex: number, offset: number): NdjsonBatch {
    return { records: [], failed: [], firstIndex, startOffset: offset, endOffset: offset };
  }
}
