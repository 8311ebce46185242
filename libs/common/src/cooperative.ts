import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Lets a long synchronous loop on the main thread (validating and redacting an ingest batch:
 * ~75 ms for 650 messages) give the event loop a turn every `sliceMs`, so live requests'
 * I/O and deadline timers run in between instead of waiting for the whole batch.
 */
export class Cooperative {
  private sliceStart = performance.now();

  constructor(private readonly sliceMs = 4) {}

  /** Resolves at once inside a slice; after one event-loop turn once the slice is used up. */
  async turn(): Promise<void> {
    if (performance.now() - this.sliceStart < this.sliceMs) {
      return;
    }
    await nextTurn();
    this.sliceStart = performance.now();
  }
}
