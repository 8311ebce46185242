/**
 * Per-caller shares of a gate every caller shares: one caller (a tenant's key, or its scope)
 * may have at most `share` calls running or waiting, so one tenant's burst cannot fill the
 * gate and starve the others; its next call is refused at once instead.
 */
export class CallerShares {
  private readonly held = new Map<string, number>();

  constructor(readonly share: number) {}

  /** A release function, or `undefined` when `caller` already holds its share. */
  take(caller: string): (() => void) | undefined {
    const held = this.held.get(caller) ?? 0;
    if (held >= this.share) {
      return undefined;
    }
    this.held.set(caller, held + 1);
    let released = false;
    return () => {
      if (released) {
        return;
      }
      released = true;
      const left = (this.held.get(caller) ?? 1) - 1;
      if (left > 0) {
        this.held.set(caller, left);
      } else {
        this.held.delete(caller);
      }
    };
  }
}
