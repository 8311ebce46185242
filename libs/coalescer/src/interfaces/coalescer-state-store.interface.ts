/**
 * The port: where each call's word tail lives between chunks. Implementations may throw on
 * a backend failure; {@link TranscriptCoalescer} turns that into "no previous tail" so a
 * request never fails because of coalescing state.
 */
export interface CoalescerStateStore {
  get(callId: string): Promise<string | undefined>;
  /** Stores `tail`, replacing any previous value, expiring `ttlMs` after this write. */
  set(callId: string, tail: string, ttlMs: number): Promise<void>;
  delete(callId: string): Promise<void>;
  /** Releases connections; called once on application shutdown. */
  close(): Promise<void>;
}
