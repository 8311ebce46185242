import { prng } from '../../bench/support/prng';

/**
 * A seeded random source for a test that wants variety (schedules, interleavings): the seed
 * comes from TEST_SEED when set, else is drawn, and is logged either way, so a failing run is
 * reproduced with `TEST_SEED=<seed> npx jest <file>`.
 */
export function seededRandom(label: string): { seed: number; random: () => number } {
  const fromEnv = Number(process.env.TEST_SEED);
  const seed =
    Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : Math.floor(Math.random() * 2 ** 31);

  console.log(`${label}: TEST_SEED=${seed}`);
  return { seed, random: prng(seed) };
}

/** The most iterations TEST_ITERATIONS may ask for (a typo must not run a suite for a day). */
const MAX_ITERATIONS = 1000;

/**
 * How many seeded iterations (rounds, schedules) a suite runs: `ciCount` per CI run, or
 * TEST_ITERATIONS (1 to 1,000) to explore more by hand; logged with the label. A value that
 * is not an integer in range throws rather than quietly running the default.
 */
export function testIterations(label: string, ciCount: number): number {
  const raw = process.env.TEST_ITERATIONS;
  const count = raw === undefined || raw === '' ? ciCount : Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > MAX_ITERATIONS) {
    throw new Error(`TEST_ITERATIONS must be an integer from 1 to ${MAX_ITERATIONS}`);
  }
  console.log(`${label}: TEST_ITERATIONS=${count}`);
  return count;
}
