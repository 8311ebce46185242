import { createHash } from 'node:crypto';
import { type FSWatcher, watch } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/** A keys file holds a few hundred lines at most; a bigger one is a mistake, never read. */
export const MAX_KEYS_FILE_BYTES = 1024 * 1024;

export interface KeysFileOptions {
  /** Read again this often whatever fs.watch says (network volumes, lost inotify events). */
  pollMs: number;
  /** Events closer than this are one change (an editor writes, renames and chmods). */
  debounceMs: number;
  /** False: polling and SIGHUP only (tests of the fallback). */
  watch: boolean;
  /**
   * A file modified less than this ago is read again later, not applied: a poll can land
   * while an operator's editor is still writing it in place, and a cut-off line parses as
   * another key (`name:HASH` without its locations is an unbound key).
   */
  settleMs: number;
}

/** What a read of the file gave: its text, or why it could not be read (never its content). */
export type KeysFileRead = { text: string } | { problem: string };

/** A read with the file's modification time (for the settle rule; not handed on). */
type TimedRead = { text: string; modifiedAt: number } | { problem: string };

/**
 * Follows API_KEYS_FILE while the service runs: fs.watch on its directory (an atomic
 * rename and a Kubernetes Secret's `..data` symlink swap are changes of the directory, not
 * of the old inode), a poll as fallback, and SIGHUP. The file is read only when one of them
 * fires and handed on only when its bytes differ from the last ones handed on, so a noisy
 * directory costs a stat and a hash, and the owner sees each version once.
 */
export class ApiKeysFile {
  private watcher?: FSWatcher;
  private poll?: NodeJS.Timeout;
  private debounce?: NodeJS.Timeout;
  private settle?: NodeJS.Timeout;
  private lastDigest?: string;
  private reading?: Promise<void>;
  private again = false;
  private stopped = false;
  private readonly onSignal = () => this.check();

  constructor(
    private readonly path: string,
    private readonly options: KeysFileOptions,
    private readonly onChange: (read: KeysFileRead) => void,
  ) {}

  /** Starts following, with a first read now (the file may have changed since the boot read it). */
  start(): void {
    if (this.options.watch) {
      try {
        this.watcher = watch(dirname(this.path), { persistent: false }, () => this.schedule());
        this.watcher.on('error', () => this.watcher?.close()); // the poll carries on
      } catch {
        this.watcher = undefined; // no inotify (limit reached, unusual filesystem): poll only
      }
    }
    this.poll = setInterval(() => this.check(), this.options.pollMs);
    this.poll.unref();
    process.on('SIGHUP', this.onSignal);
    this.check();
  }

  stop(): Promise<void> {
    this.stopped = true;
    this.watcher?.close();
    clearInterval(this.poll);
    clearTimeout(this.debounce);
    clearTimeout(this.settle);
    process.off('SIGHUP', this.onSignal);
    return this.reading ?? Promise.resolve();
  }

  private schedule(): void {
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => this.check(), this.options.debounceMs);
    this.debounce.unref();
  }

  /** Reads now, or once more after the read in flight (a change may have come meanwhile). */
  check(): void {
    if (this.stopped) {
      return;
    }
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = this.readOnce().finally(() => {
      this.reading = undefined;
      if (this.again) {
        this.again = false;
        this.check();
      }
    });
  }

  /** Resolves once no read is in flight (tests). */
  async idle(): Promise<void> {
    while (this.reading) {
      await this.reading;
    }
  }

  private async readOnce(): Promise<void> {
    const read = await readTimed(this.path);
    const key = 'text' in read ? digest(read.text) : `problem:${read.problem}`;
    if (key === this.lastDigest || this.stopped) {
      return;
    }
    if ('text' in read) {
      const age = Date.now() - read.modifiedAt;
      // settleMs 0 applies at once: an mtime in the current millisecond reads as a negative age.
      if (this.options.settleMs > 0 && age < this.options.settleMs) {
        clearTimeout(this.settle);
        this.settle = setTimeout(() => this.check(), this.options.settleMs - age + 1);
        this.settle.unref();
        return;
      }
      this.lastDigest = key;
      this.onChange({ text: read.text });
      return;
    }
    this.lastDigest = key;
    this.onChange(read);
  }
}

/** The file's text and modification time, bounded; errors name the errno code only. */
async function readTimed(path: string): Promise<TimedRead> {
  try {
    const { size, mtimeMs } = await stat(path);
    if (size > MAX_KEYS_FILE_BYTES) {
      return { problem: `API_KEYS_FILE is ${size} bytes, over ${MAX_KEYS_FILE_BYTES}` };
    }
    return { text: await readFile(path, 'utf8'), modifiedAt: mtimeMs };
  } catch (error) {
    return { problem: errnoProblem(path, error) };
  }
}

const errnoProblem = (path: string, error: unknown) =>
  `API_KEYS_FILE: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`;

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
