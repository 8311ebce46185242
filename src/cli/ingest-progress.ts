import { SingleBar } from 'cli-progress';

const MB = 1024 * 1024;

/** `1h02m`, `3m05s`, `42s`. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) {
    return '?';
  }
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}h${pad(m)}m` : m > 0 ? `${m}m${pad(s % 60)}s` : `${s}s`;
}

/**
 * Progress of a bulk ingest by bytes of the file: a bar with records/s and ETA on a terminal;
 * elsewhere (a job's log) one line per committed batch. Rate and ETA count this run only, so
 * a resumed run does not claim the bytes it skipped as its own speed.
 */
export class IngestProgress {
  private readonly bar?: SingleBar;
  private readonly startedAt: number;
  private records = 0;

  constructor(
    private readonly label: string,
    private readonly totalBytes: number,
    private readonly startOffset: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.startedAt = now();
    if (stream.isTTY) {
      this.bar = new SingleBar({
        stream,
        format:
          `${label} [{bar}] {percentage}% | {mb} MB | {rate} records/s | ETA {eta_text}` +
          '{resumed}',
        hideCursor: true,
      });
      this.bar.start(totalBytes, startOffset, this.payload(startOffset));
    }
  }

  /** Bytes stored so far (interpolated within a batch as its conversation groups commit). */
  update(offset: number): void {
    this.bar?.update(offset, this.payload(offset));
  }

  /** A batch is committed: `offset` bytes and `records` more records are done. */
  batchDone(offset: number, records: number): void {
    this.records += records;
    if (this.bar) {
      this.bar.update(offset, this.payload(offset));
      return;
    }
    const p = this.payload(offset);
    const percent = ((100 * offset) / Math.max(1, this.totalBytes)).toFixed(1);
    this.stream.write(
      `${this.label}: ${percent}% ${p.mb} MB, ${this.records} records, ` +
        `${p.rate} records/s, ETA ${p.eta_text}\n`,
    );
  }

  stop(): void {
    this.bar?.stop();
  }

  private payload(offset: number) {
    const seconds = (this.now() - this.startedAt) / 1000;
    const done = offset - this.startOffset;
    const eta = done > 0 ? ((this.totalBytes - offset) * seconds) / done : Number.NaN;
    return {
      mb: `${(offset / MB).toFixed(1)}/${(this.totalBytes / MB).toFixed(1)}`,
      rate: seconds > 0 ? Math.round(this.records / seconds) : 0,
      eta_text: formatDuration(eta),
      resumed: this.startOffset > 0 ? ` (resumed at ${(this.startOffset / MB).toFixed(1)} MB)` : '',
    };
  }
}
