import { readFileSync } from 'node:fs';

import { SingleBar } from 'cli-progress';

import { type IngestReport } from '../ingest/ingest.dto';
import { IngestService, type ProgressListener } from '../ingest/ingest.service';
import { parseNdjson } from '../ingest/record-validation';
import { withAppContext } from './cli-context';

/** Reads a JSON array or NDJSON (one record per line) file. */
export function readRecords(file: string) {
  const text = readFileSync(file, 'utf8');
  return text.trimStart().startsWith('[')
    ? { records: JSON.parse(text) as unknown[], failed: [] }
    : parseNdjson(text);
}

/** `context-bridge ingest conversations|kb FILE`: the HTTP ingest path, with a progress bar. */
export async function ingestCommand(
  kind: 'conversations' | 'kb',
  file: string,
): Promise<IngestReport> {
  const { records, failed } = readRecords(file);
  return withAppContext(async (ctx) => {
    const ingest = ctx.get(IngestService);
    const bar = process.stderr.isTTY
      ? new SingleBar({
          stream: process.stderr,
          format: `${kind} [{bar}] {value}/{total} ${kind === 'kb' ? 'topics' : 'conversations'}`,
        })
      : undefined;
    const onProgress: ProgressListener = (done, total) => {
      if (bar && !bar.isActive) {
        bar.start(total, 0);
      }
      bar?.update(done);
    };
    try {
      return kind === 'conversations'
        ? await ingest.ingestConversations(records, failed, onProgress)
        : await ingest.ingestKb(records, failed, onProgress);
    } finally {
      bar?.stop();
    }
  });
}
