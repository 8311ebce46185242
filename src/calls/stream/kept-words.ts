import { MAX_KEPT_CHARS, MAX_TRANSCRIPT_CHARS } from './call-stream.protocol';

/**
 * The words of a stream's finals that built no bundle (over the call's rate, or while its
 * finals in flight were at the cap): nothing a caller said is dropped. They ride at the front
 * of the next final that is built (its query, its coalescer tail and the turn the call
 * remembers), or join the call's memory when the stream stops first (a flooding caller's
 * within its shared budget: FinalsPacer.mayRemember). At most
 * {@link MAX_KEPT_CHARS}: past it the oldest words go.
 */
export class KeptWords {
  private text = '';

  get empty(): boolean {
    return this.text.length === 0;
  }

  add(transcript: string): void {
    this.text = lastChars(this.join(transcript), MAX_KEPT_CHARS);
  }

  /** The transcript a built final carries (the kept words, then its own); nothing is kept after. */
  takeWith(transcript: string): string {
    if (this.text.length === 0) {
      return transcript;
    }
    const merged = lastChars(this.join(transcript), MAX_TRANSCRIPT_CHARS);
    this.text = '';
    return merged;
  }

  /** What is kept, emptied. */
  take(): string {
    const text = this.text;
    this.text = '';
    return text;
  }

  private join(transcript: string): string {
    const own = transcript.trim();
    return this.text.length === 0 ? own : own.length === 0 ? this.text : `${this.text} ${own}`;
  }
}

/** The last `max` characters of `text`, starting at a word (a cut word is dropped). */
function lastChars(text: string, max: number): string {
  if (text.length <= max) {
    return text;
  }
  const from = text.length - max;
  if (/\s/.test(text[from - 1])) {
    return text.slice(from);
  }
  const tail = text.slice(from);
  const space = tail.search(/\s/);
  return space < 0 ? '' : tail.slice(space + 1).trimStart();
}
