import { seededRandom } from '../../test/support/seeded';
import { parseJsonCooperatively, topLevelElements } from './cooperative-json';

const { seed, random: seeded } = seededRandom('cooperative-json');
const NASTY = ['', ',', ']', '[', '{', '}', '"', '\\', '\\"', 'a,b', 'ü€😀', '\n'];

/** A random JSON value whose strings are made of the characters a splitter trips on. */
function value(random: () => number, depth = 0): unknown {
  const pick = random();
  if (depth > 3 || pick < 0.3) {
    return Array.from(
      { length: 1 + Math.floor(random() * 4) },
      () => NASTY[Math.floor(random() * NASTY.length)],
    ).join('');
  }
  if (pick < 0.45) {
    return Math.floor(random() * 1e6) - 5e5;
  }
  if (pick < 0.7) {
    return Array.from({ length: Math.floor(random() * 4) }, () => value(random, depth + 1));
  }
  return Object.fromEntries(
    Array.from({ length: Math.floor(random() * 4) }, (_, i) => [
      `k${i},]`,
      value(random, depth + 1),
    ]),
  );
}

describe('parseJsonCooperatively', () => {
  it(`parses generated arrays exactly as JSON.parse does (TEST_SEED=${seed})`, async () => {
    const random = seeded;
    for (let n = 0; n < 300; n++) {
      const sut = Array.from({ length: Math.floor(random() * 6) }, () => value(random));
      const text = JSON.stringify(sut, null, n % 2 === 0 ? 0 : 2);
      await expect(parseJsonCooperatively(text, JSON.parse)).resolves.toEqual(sut);
    }
  });

  it('refuses what JSON.parse refuses', async () => {
    for (const text of ['[,1]', '[1,]', '[1,,2]', '[1] x', '[1', '[1}', '[{"a":1]']) {
      await expect(parseJsonCooperatively(text, JSON.parse)).rejects.toThrow();
    }
    await expect(parseJsonCooperatively(' [ ] ', JSON.parse)).resolves.toEqual([]);
    expect(await topLevelElements('{"not":"an array"}')).toBeUndefined();
  });

  it('lets other work run while it parses a large array', async () => {
    const big = JSON.stringify(
      Array.from({ length: 20_000 }, (_, i) => ({ i, t: 'x'.repeat(200) })),
    );
    let done = false;
    let ranDuring = false;
    const parsed = parseJsonCooperatively(big, JSON.parse).then((v) => ((done = true), v));
    const tick = () => {
      if (!done) {
        ranDuring = true;
      }
    };
    setImmediate(tick);
    expect(await parsed).toHaveLength(20_000);
    expect(ranDuring).toBe(true); // one JSON.parse of 4 MB would have run to the end first
  });
});
