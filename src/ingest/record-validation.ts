import { Cooperative, InvalidInputError } from '@app/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { exceedsDepth } from '../common/json-depth';
import { type IngestFailure } from './ingest.dto';
import { tooManyRecords } from './record-counter';

/**
 * Validates records one by one so a bad record is reported by index and never sinks the
 * batch. Unknown fields are stripped, not rejected: exports from other tools carry extras.
 * class-validator costs ~0.07 ms a record, so a big batch yields to live requests as it goes.
 */
export async function validateRecords<T extends object>(
  cls: new () => T,
  records: unknown[],
  /** Failures already known (e.g. unparseable NDJSON lines); those indexes are not re-checked. */
  known: IngestFailure[] = [],
): Promise<{ valid: Array<{ index: number; value: T }>; failed: IngestFailure[] }> {
  const valid: Array<{ index: number; value: T }> = [];
  const failed: IngestFailure[] = [...known];
  const skip = new Set(known.map((f) => f.index));
  const cooperative = new Cooperative();
  for (const [index, record] of records.entries()) {
    await cooperative.turn();
    if (skip.has(index)) {
      continue;
    }
    if (record === null || typeof record !== 'object' || Array.isArray(record)) {
      failed.push({ index, error: 'record must be a JSON object' });
      continue;
    }
    const value = plainToInstance(cls, record);
    const errors = validateSync(value, { whitelist: true });
    if (errors.length > 0) {
      const messages = errors.flatMap((e) => Object.values(e.constraints ?? {}));
      failed.push({ index, error: messages.join('; ') });
    } else {
      valid.push({ index, value });
    }
  }
  return { valid, failed: failed.sort((a, b) => a.index - b.index) };
}

/**
 * One NDJSON line: the record, or why it is unusable. Shared by the HTTP body parser and the
 * CLI's streaming reader, so both report the same errors for the same line.
 */
export function parseNdjsonLine(line: string): { record: unknown } | { error: string } {
  try {
    const record: unknown = JSON.parse(line);
    return exceedsDepth(record) ? { error: 'record nests too deep' } : { record };
  } catch {
    return { error: 'invalid JSON' };
  }
}

/**
 * Parses NDJSON; a malformed line becomes a failure at its record index, not a 400. Yields
 * between slices: a 32 MB body is seconds of `JSON.parse` that live requests must not wait on.
 */
export async function parseNdjson(
  body: string,
): Promise<{ records: unknown[]; failed: IngestFailure[] }> {
  const records: unknown[] = [];
  const failed: IngestFailure[] = [];
  const cooperative = new Cooperative();
  for (const line of body.split(/\r?\n/)) {
    await cooperative.turn();
    if (line.trim().length === 0) {
      continue;
    }
    const parsed = parseNdjsonLine(line);
    if ('error' in parsed) {
      failed.push({ index: records.length, error: parsed.error });
      records.push(undefined);
    } else {
      records.push(parsed.record);
    }
  }
  return { records, failed };
}

/** An HTTP request body as received: a JSON array, one object, or NDJSON text. */
export interface IngestBody {
  body: unknown;
  contentType?: string;
}

/**
 * The records of a request body (NDJSON lines, an array, or one object); refuses an empty
 * batch and one of more than `maxRecords` (400): the CLI is the path for big files.
 */
export async function recordsFromBody(
  { body, contentType }: IngestBody,
  maxRecords: number,
): Promise<{ records: unknown[]; failed: IngestFailure[] }> {
  const parsed =
    contentType?.startsWith('application/x-ndjson') && typeof body === 'string'
      ? await parseNdjson(body)
      : { records: Array.isArray(body) ? body : [body], failed: [] };
  if (body === undefined || body === null || parsed.records.length === 0) {
    throw new InvalidInputError('empty_batch', 'The body holds no records.');
  }
  if (parsed.records.length > maxRecords) {
    throw tooManyRecords(maxRecords); // the CLI and tests call without the streaming count
  }
  return parsed;
}
