import { createReadStream, statSync } from 'node:fs';
import { extname } from 'node:path';
import { createInterface } from 'node:readline';

import { type CsvError, parse } from 'csv-parse';

import { columnName, CONTACT_IMPORT_LIMITS, type ContactFields } from './contact-rows';

export type ContactFormat = 'csv' | 'ndjson';

/** One row of the export with its 1-based line (a CSV record's first line), or why it is unusable. */
export type SourceRow = { line: number } & ({ fields: ContactFields } | { error: string });

/** A file the import refuses as a whole (too large, no usable header, broken CSV quoting). */
export class ContactFileError extends Error {}

/** `--format`, else the extension (.csv; .ndjson, .jsonl). */
export function contactFormat(file: string, explicit?: string): ContactFormat {
  if (explicit === 'csv' || explicit === 'ndjson') {
    return explicit;
  }
  if (explicit !== undefined) {
    throw new ContactFileError('--format must be csv or ndjson');
  }
  const ext = extname(file).toLowerCase();
  if (ext === '.csv') {
    return 'csv';
  }
  if (ext === '.ndjson' || ext === '.jsonl') {
    return 'ndjson';
  }
  throw new ContactFileError('cannot tell the format from the extension: pass --format');
}

/** Refuses a file over the size bound before a byte is parsed. */
export function checkFileSize(file: string): number {
  const size = statSync(file).size;
  if (size > CONTACT_IMPORT_LIMITS.fileBytes) {
    throw new ContactFileError(
      `the file is ${size} bytes; the import takes at most ${CONTACT_IMPORT_LIMITS.fileBytes}`,
    );
  }
  return size;
}

/** Header names of a CSV export, refusing one named twice (which cell would win is a guess). */
function headerColumns(header: string[]): string[] {
  const names = header.map(columnName);
  const twice = names.find((name, i) => name !== '' && names.indexOf(name) !== i);
  if (twice !== undefined) {
    throw new ContactFileError(`line 1: column ${twice} appears twice in the header`);
  }
  return names;
}

/** The line csv-parse reports an error at (its errors carry the parser's counters). */
const lineOf = (error?: CsvError): number => (typeof error?.lines === 'number' ? error.lines : 0);

/**
 * Streams a CSV export (RFC 4180 quoting, a BOM, CRLF or LF) as rows keyed by header names.
 * A malformed record is reported by line and skipped; csv-parse's own messages quote the
 * data, so only its code is passed on.
 */
export async function* csvRows(file: string): AsyncGenerator<SourceRow> {
  const skipped: SourceRow[] = [];
  let oversized: number | undefined;
  const tooLong = (line: number) =>
    new ContactFileError(
      `line ${line}: a record is longer than ${CONTACT_IMPORT_LIMITS.recordBytes} bytes ` +
        '(an unclosed quote?)',
    );
  const parser = createReadStream(file).pipe(
    parse({
      bom: true,
      columns: headerColumns,
      skip_empty_lines: true,
      max_record_size: CONTACT_IMPORT_LIMITS.recordBytes,
      info: true,
      skip_records_with_error: true,
      on_skip: (error?: CsvError) => {
        if (error?.code === 'CSV_MAX_RECORD_SIZE') {
          // Nothing after it parses sensibly (an unclosed quote, or not a contacts export).
          oversized ??= lineOf(error);
        } else {
          skipped.push({ line: lineOf(error), error: `malformed CSV record (${error?.code})` });
        }
      },
    }),
  );
  try {
    for await (const { info, record } of parser as AsyncIterable<{
      info: { lines: number; records: number };
      record: Record<string, string>;
    }>) {
      yield* skipped.splice(0);
      if (oversized !== undefined) {
        throw tooLong(oversized);
      }
      // `lines` is where the record ends; a quoted multi-line cell starts it earlier.
      yield { line: info.lines, fields: record };
    }
  } catch (error) {
    if (error instanceof ContactFileError) {
      throw error;
    }
    const csv = error as CsvError;
    throw new ContactFileError(`line ${lineOf(csv)}: unreadable CSV (${csv.code ?? 'error'})`);
  }
  yield* skipped.splice(0);
  if (oversized !== undefined) {
    throw tooLong(oversized);
  }
}

/** Streams an NDJSON export, one JSON object a line (a BOM and CRLF tolerated). */
export async function* ndjsonRows(file: string): AsyncGenerator<SourceRow> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let line = 0;
  for await (const raw of lines) {
    line += 1;
    const text = line === 1 ? raw.replace(/^\ufeff/, '') : raw;
    if (text.trim() === '') {
      continue;
    }
    if (Buffer.byteLength(text) > CONTACT_IMPORT_LIMITS.recordBytes) {
      yield { line, error: `line is longer than ${CONTACT_IMPORT_LIMITS.recordBytes} bytes` };
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      yield { line, error: 'not valid JSON' };
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      yield { line, error: 'not a JSON object' };
      continue;
    }
    // No prototype: a `__proto__` key is then just an unknown column.
    const fields: ContactFields = Object.create(null) as ContactFields;
    for (const [key, cell] of Object.entries(value)) {
      fields[columnName(key)] = cell;
    }
    yield { line, fields };
  }
}
