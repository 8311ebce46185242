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
