import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';

import { InvalidInputError } from '@app/common';

import { type IngestFailure } from '../ingest/ingest.dto';
import { type NdjsonPosition } from './ndjson-batches';

/** Bytes of the file's start that identify it (an export that grew at its end still matches). */
const HEAD_BYTES = 64 * 1024;
/** Failures kept for the report; the rest are counted (a bad multi-GB file must not fill RAM). */
export const MAX_REPORTED_FAILURES = 1000;

/** What a bulk ingest has committed so far, in a small JSON file beside the export. */
export interface IngestCheckpoint {
  version: 1;
  kind: 'conversations' | 'kb';
  /** sha256 of the file's first 64 KiB. */
  head: string;
  /** Everything before this offset (and record index) is stored. */
  position: NdjsonPosition;
  received: number;
  inserted: number;
  skipped: number;
  /** The first {@link MAX_REPORTED_FAILURES} failures, by file-wide record index. */
  failed: IngestFailure[];
  failed_total: number;
}

/** The sidecar used when no `--state` is given. */
export const defaultStatePath = (file: string) => `${file}.ingest-state.json`;

/** sha256 of the first 64 KiB of `file`. */
export function fileHead(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const read = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    return createHash('sha256').update(buffer.subarray(0, read)).digest('hex');
  } finally {
    closeSync(fd);
  }
}

/** A checkpoint for a run that has committed nothing yet. */
export function freshCheckpoint(kind: IngestCheckpoint['kind'], head: string): IngestCheckpoint {
  return {
    version: 1,
    kind,
    head,
    position: { offset: 0, index: 0 },
    received: 0,
    inserted: 0,
    skipped: 0,
    failed: [],
    failed_total: 0,
  };
}

/**
 * The checkpoint at `statePath`, if any. A checkpoint of another file (its first 64 KiB
 * differ), another kind, or past the file's end is refused: resuming from it would skip
 * records of the file at hand. `--restart` deletes it instead.
 */
export function loadCheckpoint(
  statePath: string,
  kind: IngestCheckpoint['kind'],
  head: string,
  size: number,
): IngestCheckpoint | undefined {
  if (!existsSync(statePath)) {
    return undefined;
  }
  let saved: IngestCheckpoint;
  try {
    saved = JSON.parse(readFileSync(statePath, 'utf8')) as IngestCheckpoint;
  } catch {
    throw mismatch(statePath, 'it is not a checkpoint file');
  }
  if (saved.version !== 1 || saved.kind !== kind) {
    throw mismatch(statePath, `it is not a checkpoint of a ${kind} ingest`);
  }
  if (saved.head !== head || saved.position.offset > size) {
    throw mismatch(statePath, 'the file changed since it was written');
  }
  return saved;
}

/**
 * Replaces the checkpoint atomically: a temporary file, flushed, then renamed over the old
 * one, so a kill at any moment leaves either the previous checkpoint or this one, whole.
 */
export function saveCheckpoint(statePath: string, checkpoint: IngestCheckpoint): void {
  const temporary = `${statePath}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    writeSync(fd, JSON.stringify(checkpoint));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, statePath);
}

/** Removes the checkpoint once the whole file is stored: a later run starts from the top. */
export function clearCheckpoint(statePath: string): void {
  rmSync(statePath, { force: true });
  rmSync(`${statePath}.tmp`, { force: true });
}

function mismatch(statePath: string, reason: string): InvalidInputError {
  return new InvalidInputError(
    'checkpoint_mismatch',
    `Cannot resume from ${statePath}: ${reason}. Pass --restart to ingest from the start ` +
      '(stored records are recognised and skipped).',
  );
}
