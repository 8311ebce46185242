import { Transform, type TransformCallback } from 'node:stream';

import { DomainError, InvalidInputError } from '@app/common';

/**
 * The longest NDJSON line (one record) read: 20,000 characters of text, every one escaped
 * as `\uXXXX`, is 120 KB; a KB topic is larger but far from this.
 */
export const MAX_RECORD_BYTES = 1024 * 1024;

/** One NDJSON line longer than {@link MAX_RECORD_BYTES} (413). */
export class RecordTooLargeError extends DomainError {
  constructor(index: number) {
    super(
      'record_too_large',
      `Record ${index} is longer than ${MAX_RECORD_BYTES} bytes; no record can be that large.`,
      413,
      { index },
    );
  }
}

export const tooManyRecords = (maxRecords: number) =>
  new InvalidInputError(
    'too_many_records',
    `At most ${maxRecords} records per request; split the file or use the CLI.`,
  );

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }
const isSpace = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/**
 * Counts an ingestion body's records as its bytes stream in, without parsing them, and fails
 * the stream at the first record past `maxRecords` (or an NDJSON line past
 * {@link MAX_RECORD_BYTES}): a 32 MB body of tiny records is refused after the cap's worth
 * of bytes, before anything buffers or `JSON.parse`s it. NDJSON counts non-blank lines (as
 * `parseNdjson` does); JSON counts the elements of a top-level array, skipping strings and
 * nested values. Every byte is looked at once: linear in the body.
 */
export class RecordCounter extends Transform {
  private records = 0;
  // NDJSON: the current line's length and whether it holds anything but whitespace.
  private lineBytes = 0;
  private lineHasContent = false;
  // JSON: nesting depth, string state, and whether the current top-level element began.
  private depth = 0;
  private inString = false;
  private escaped = false;
  private topIsArray = false;
  private elementOpen = false;

  constructor(
    private readonly format: 'ndjson' | 'json',
    private readonly maxRecords: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const error = this.format === 'ndjson' ? this.scanLines(chunk) : this.scanJson(chunk);
    done(error, error ? undefined : chunk);
  }

  /** A last NDJSON line needs no newline. */
  override _flush(done: TransformCallback): void {
    done(this.format === 'ndjson' ? this.endLine() : undefined);
  }

  private scanLines(chunk: Buffer): DomainError | undefined {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.lineBytes += end - start;
      for (let i = start; !this.lineHasContent && i < end; i++) {
        this.lineHasContent = !isSpace(chunk[i]);
      }
      if (this.lineBytes > MAX_RECORD_BYTES) {
        return new RecordTooLargeError(this.records);
      }
      if (newline === -1) {
        break;
      }
      const error = this.endLine();
      if (error) {
        return error;
      }
      start = newline + 1;
    }
    return undefined;
  }

  private endLine(): DomainError | undefined {
    if (this.lineHasContent) {
      this.records++;
    }
    this.lineBytes = 0;
    this.lineHasContent = false;
    return this.records > this.maxRecords ? tooManyRecords(this.maxRecords) : undefined;
  }

  private scanJson(chunk: Buffer): DomainError | undefined {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
        } else if (byte === BACKSLASH) {
          this.escaped = true;
        } else if (byte === QUOTE) {
          this.inString = false;
        }
        continue;
      }
      if (isSpace(byte)) {
        continue;
      }
      if (this.depth === 0 && byte === 0x5b && this.records === 0 && !this.topIsArray) {
        this.topIsArray = true;
      } else if (this.depth === 1 && this.topIsArray && byte === COMMA) {
        this.elementOpen = false;
      } else if (this.depth === 1 && this.topIsArray && !this.elementOpen && !CLOSERS.has(byte)) {
        this.elementOpen = true;
        if (++this.records > this.maxRecords) {
          return tooManyRecords(this.maxRecords);
        }
      }
      if (byte === QUOTE) {
        this.inString = true;
      } else if (OPENERS.has(byte)) {
        this.depth++;
      } else if (CLOSERS.has(byte)) {
        this.depth--;
      }
    }
    return undefined;
  }
}
