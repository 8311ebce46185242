import { GROUPS, MAX_FINE_STRIPES, stripeOf, stripePlan, STRIPES } from './lock-stripes';

/** Seeded xorshift32: the same keys on every run (the seed is logged on failure via its name). */
function seededKeys(seed: number, count: number): string[] {
  let state = seed;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
  return Array.from({ length: count }, () => `contact-${next().toString(36)}`);
}

const SEED = 0x5eed37;

describe('lock stripes', () => {
  it(`maps any key set, 5,000 keys included, to at most 64 locks (seed ${SEED})`, () => {
    for (const size of [0, 1, 2, 31, 32, 33, 500, 5000, 50_000]) {
      const sut = stripePlan(seededKeys(SEED + size, size));
      expect(sut.shared.length + sut.exclusive.length).toBeLessThanOrEqual(2 * MAX_FINE_STRIPES);
      expect(sut.shared.length + sut.exclusive.length).toBeLessThanOrEqual(GROUPS);
    }
  });

  it('keeps every stripe and group in range, whatever the key (hostile values)', () => {
    const hostile = [
      '',
      '\u0000',
      '\uffff'.repeat(10_000),
      '🙂',
      "'; DROP TABLE x; --",
      'a'.repeat(1e5),
    ];
    for (const key of hostile) {
      const stripe = stripeOf(key);
      expect(Number.isInteger(stripe) && stripe >= 0 && stripe < STRIPES).toBe(true);
    }
    const { shared, exclusive } = stripePlan(hostile);
    for (const lock of [...shared, ...exclusive]) {
      expect(lock >= 0 && lock < STRIPES + GROUPS).toBe(true);
    }
  });

  it('takes each list in ascending order, without repeats (no two callers deadlock)', () => {
    for (const size of [5, 40, 3000]) {
      const { shared, exclusive } = stripePlan(seededKeys(SEED * size, size));
      for (const list of [shared, exclusive]) {
        expect(list).toEqual([...new Set(list)].sort((a, b) => a - b));
      }
    }
  });

  it('makes a small set and a large set that share a key conflict, through the group lock', () => {
    const large = seededKeys(SEED, 500);
    const small = [large[7], 'some-other-contact'];
    const coarse = stripePlan(large);
    const fine = stripePlan(small);
    expect(coarse.shared).toEqual([]);
    // The small set's shared group lock of the common key is held EXCLUSIVE by the large set.
    const common = STRIPES + Math.floor(stripeOf(large[7]) / (STRIPES / GROUPS));
    expect(fine.shared).toContain(common);
    expect(coarse.exclusive).toContain(common);
  });

  it('is stable: the same key always lands on the same stripe (every replica agrees)', () => {
    expect(stripeOf('contact-1\u001fconv-1')).toBe(stripeOf('contact-1\u001fconv-1'));
    expect(stripeOf('abc')).toBe(440920331 % STRIPES);
  });
});
