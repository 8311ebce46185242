import { type AdmissionGate } from '../admission-gate';
import { type CallIdentity } from './call-sessions';
import { type CallTurns } from './call-turns';

/**
 * Speculation starts only after this long without a final: finals arriving this often leave
 * no idle gap a search fits in, and a started search the next final aborts is work wasted.
 */
export const SPECULATION_QUIET_MS = 200;

/**
 * Finals before interim work: a final arriving aborts other calls' speculation (its queued
 * embed and statements leave the queues the final joins), and speculation counts the process
 * busy while a final is in flight, waiting, or came or went under {@link SPECULATION_QUIET_MS}
 * ago, so it only takes capacity finals leave idle.
 */
export class FinalsFirst {
  private lastFinal = -Infinity;

  constructor(
    private readonly gate: AdmissionGate,
    private readonly calls: CallTurns,
  ) {}

  /** A final of `call` (or of none) arrived, before it queues for admission. */
  arrived(call: CallIdentity | undefined): void {
    this.calls.yieldTo(call);
    this.lastFinal = performance.now();
  }

  /** A final left (answered or shed). */
  left(): void {
    this.lastFinal = performance.now();
  }

  /** Speculation must not start or prepare now. */
  readonly busy = (): boolean =>
    this.gate.load.waiting > 0 ||
    this.gate.load.inFlight > 0 ||
    performance.now() - this.lastFinal < SPECULATION_QUIET_MS;
}
