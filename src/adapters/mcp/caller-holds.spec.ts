import { CallerHolds, MCP_HOLD_MAX_CALLERS, MCP_HOLD_MS } from './caller-holds';

describe('CallerHolds', () => {
  let now: number;
  const perf = { now: () => now };

  beforeEach(() => {
    now = 1_000_000; // lru-cache reads a start of 0 as "no TTL"
  });

  it('holds a caller for MCP_HOLD_MS, then lets it go', () => {
    const sut = new CallerHolds({ perf });
    expect(sut.remaining('ip:10.0.0.1')).toBe(0);
    sut.hold('ip:10.0.0.1');
    expect(sut.remaining('ip:10.0.0.1')).toBe(MCP_HOLD_MS);
    now += MCP_HOLD_MS - 1;
    expect(sut.remaining('ip:10.0.0.1')).toBe(1);
    now += 2;
    expect(sut.remaining('ip:10.0.0.1')).toBe(0);
  });

  it('holds one caller only', () => {
    const sut = new CallerHolds({ perf });
    sut.hold('key:tenant-a');
    expect(sut.remaining('key:tenant-b')).toBe(0);
    expect(sut.remaining('ip:127.0.0.1')).toBe(0);
  });

  it('starts a hold again when the caller is refused again', () => {
    const sut = new CallerHolds({ perf });
    sut.hold('key:a');
    now += MCP_HOLD_MS - 10;
    sut.hold('key:a');
    now += 100;
    expect(sut.remaining('key:a')).toBe(MCP_HOLD_MS - 100);
  });

  it('never holds longer than one hold when the clock steps back', () => {
    const sut = new CallerHolds({ perf });
    sut.hold('key:a');
    now -= 60_000;
    expect(sut.remaining('key:a')).toBe(MCP_HOLD_MS);
  });

  it(`keeps at most ${MCP_HOLD_MAX_CALLERS} callers however many are refused, the oldest dropped`, () => {
    const sut = new CallerHolds({ perf });
    for (let i = 0; i < MCP_HOLD_MAX_CALLERS * 3; i++) {
      sut.hold(`ip:10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`); // hostile: a fresh address each
    }
    expect(sut.size).toBe(MCP_HOLD_MAX_CALLERS);
    expect(sut.remaining('ip:10.0.0.0')).toBe(0); // the first, dropped
    const last = MCP_HOLD_MAX_CALLERS * 3 - 1;
    expect(sut.remaining(`ip:10.${last >> 16}.${(last >> 8) & 255}.${last & 255}`)).toBe(
      MCP_HOLD_MS,
    );
  });

  it('drops the least recently held first: a renewed hold outlives older ones', () => {
    const sut = new CallerHolds({ perf, maxCallers: 2 });
    sut.hold('a');
    sut.hold('b');
    sut.hold('a'); // refused again: now the most recent
    sut.hold('c');
    expect([sut.remaining('a'), sut.remaining('b'), sut.remaining('c')]).toEqual([
      MCP_HOLD_MS,
      0,
      MCP_HOLD_MS,
    ]);
  });
});
