import { type AdmissionGate } from '../admission-gate';
import { type CallIdentity } from './call-sessions';
import { type CallTurns } from './call-turns';

/**
 * Speculation starts only after this long without a final: finals arriving this often leave
 * no idle gap a search fits in, and a started search the next final aborts is work wasted.
 */
export const SPECULATION_QUIET_MS = 200;
/**
 * Finals arriving this many times within {@link FINALS_RATE_WINDOW_MS} hold speculation back
 * however long the latest gap: a search (an embed and a statement) then rarely ends before the
 * next final, which aborts it or waits behind its running statement, so it costs finals and
 * serves few (docs/agent-platforms.md, the 16-call runs).
 */
export const MAX_FINALS_FOR_SPECULATION = 3;
export const FINALS_RATE_WINDOW_MS = 1000;

/**
 * Finals before interim work: a final arriving aborts other calls' speculation (its queued
 * embed and statements leave the queues the final joins), and speculation counts the process
 * busy while a final is in flight, waiting, or came or went under {@link SPECULATION_QUIET_MS}
 * ago, or while finals come often ({@link MAX_FINALS_FOR_SPECULATION}), so it only takes
 * capacity finals leave idle.
 */
export class FinalsFirst {
  private lastFinal = -Infinity;
  /** Arrival times of the latest finals, oldest first (at most MAX_FINALS_FOR_SPECULATION). */
  private readonly arrivals: number[] = [];

  constructor(
    private readonly gate: AdmissionGate,
    private readonly calls: CallTurns,
  ) {}

  /** A final of `call` (or of none) arrived, before it queues for admission. */
  arrived(call: CallIdentity | undefined): void {
    this.calls.yieldTo(call);
    this.lastFinal = performance.now();
    this.arrivals.push(this.lastFinal);
    if (this.arrivals.length > MAX_FINALS_FOR_SPECULATION) {
      this.arrivals.shift();
    }
  }

  /** A final left (answered or shed). */
  left(): void {
    this.lastFinal = performance.now();
  }

  /** Speculation must not start or prepare now. */
  readonly busy = (): boolean =>
    this.gate.load.waiting > 0 ||
    this.gate.load.inFlight > 0 ||
    performance.now() - this.lastFinal < SPECULATION_QUIET_MS ||
    this.finalsFrequent();

  private finalsFrequent(): boolean {
    return (
      this.arrivals.length >= MAX_FINALS_FOR_SPECULATION &&
      performance.now() - this.arrivals[0] < FINALS_RATE_WINDOW_MS
    );
  }
}
