import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';

import { type IngestFailure, type IngestReport } from '../ingest/ingest.dto';
import { IngestService } from '../ingest/ingest.service';
import { withAppContext } from './cli-context';
import {
  clearCheckpoint,
  defaultStatePath,
  fileHead,
  freshCheckpoint,
  type IngestCheckpoint,
  loadCheckpoint,
  MAX_REPORTED_FAILURES,
  saveCheckpoint,
} from './ingest-checkpoint';
import { IngestProgress } from './ingest-progress';
import { type NdjsonBatch, NdjsonBatchReader } from './ndjson-batches';

type IngestKind = 'conversations' | 'kb';

export interface IngestCommandOptions {
  /** Records per committed batch. */
  batch: number;
  /** Checkpoint file; default `<file>.ingest-state.json`. */
  state?: string;
  /** Ignore (delete) an existing checkpoint and start from the top. */
  restart?: boolean;
}

/** The CLI's report: the HTTP one, plus what a streamed, resumable run adds. */
export interface BulkIngestReport extends IngestReport {
  /** Failures in the file, of which `failed` lists the first 1,000. */
  failed_total: number;
  /** Where this run started (0 unless it resumed from a checkpoint). */
  resumed_from_byte: number;
}

/** A batch closes at this many bytes even if it has fewer records (very long texts). */
const MAX_BATCH_BYTES = 16 * 1024 * 1024;

const conversationOf = (record: unknown) => {
  const uid = (record as { conversation_uid?: unknown }).conversation_uid;
  return typeof uid === 'string' ? uid : undefined;
};

/** True when the file's first non-blank byte opens a JSON array. */
function isJsonArray(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read).toString('utf8').trimStart().startsWith('[');
  } finally {
    closeSync(fd);
  }
}

/**
 * `context-bridge ingest conversations|kb FILE`: the HTTP ingest path, file by batches.
 * NDJSON is streamed (bounded memory, whatever the file size) and a checkpoint is written
 * after every committed batch, so a killed run resumes where it stopped; a JSON array is
 * read whole (small files).
 */
export async function ingestCommand(
  kind: IngestKind,
  file: string,
  options: IngestCommandOptions,
): Promise<BulkIngestReport> {
  if (isJsonArray(file)) {
    const records = JSON.parse(readFileSync(file, 'utf8')) as unknown[];
    return withAppContext(async (ctx) => {
      const report = await ingestBatch(ctx.get(IngestService), kind, records, []);
      return { ...report, failed_total: report.failed.length, resumed_from_byte: 0 };
    });
  }
  const statePath = options.state ?? defaultStatePath(file);
  if (options.restart) {
    clearCheckpoint(statePath);
  }
  const size = statSync(file).size;
  const head = fileHead(file);
  const resumed = loadCheckpoint(statePath, kind, head, size);
  return withAppContext(async (ctx) => {
    const ingest = ctx.get(IngestService);
    let state = resumed ?? freshCheckpoint(kind, head);
    const startOffset = state.position.offset;
    const progress = new IngestProgress(kind, size, startOffset);
    const reader = new NdjsonBatchReader(file, {
      start: state.position,
      records: options.batch,
      maxBytes: MAX_BATCH_BYTES,
      groupKey: kind === 'conversations' ? conversationOf : undefined,
    });
    try {
      for await (const batch of reader.batches()) {
        const span = batch.endOffset - batch.startOffset;
        const report = await ingestBatch(ingest, kind, batch.records, batch.failed, (done, total) =>
          progress.update(batch.startOffset + Math.floor((span * done) / Math.max(1, total))),
        );
        // Only now is the batch stored (messages, then windows): a kill before this line
        // redoes it, which content-hash ids make harmless.
        state = advance(state, batch, report);
        saveCheckpoint(statePath, state);
        progress.batchDone(batch.endOffset, batch.records.length);
      }
    } finally {
      progress.stop();
    }
    clearCheckpoint(statePath);
    const { received, inserted, skipped, failed, failed_total } = state;
    return { received, inserted, skipped, failed, failed_total, resumed_from_byte: startOffset };
  });
}

function ingestBatch(
  ingest: IngestService,
  kind: IngestKind,
  records: unknown[],
  failed: IngestFailure[],
  onProgress?: (done: number, total: number) => void,
): Promise<IngestReport> {
  return kind === 'conversations'
    ? ingest.ingestConversations(records, failed, onProgress)
    : ingest.ingestKb(records, failed, onProgress);
}

/** The checkpoint after `batch` is stored: failures renumbered to file-wide record indexes. */
function advance(
  state: IngestCheckpoint,
  batch: NdjsonBatch,
  report: IngestReport,
): IngestCheckpoint {
  const room = MAX_REPORTED_FAILURES - state.failed.length;
  const failed = report.failed
    .slice(0, Math.max(0, room))
    .map((f) => ({ ...f, index: f.index + batch.firstIndex }));
  return {
    ...state,
    position: { offset: batch.endOffset, index: batch.firstIndex + batch.records.length },
    received: state.received + report.received,
    inserted: state.inserted + report.inserted,
    skipped: state.skipped + report.skipped,
    failed: [...state.failed, ...failed],
    failed_total: state.failed_total + report.failed.length,
  };
}
