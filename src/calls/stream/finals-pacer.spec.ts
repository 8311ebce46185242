import {
  FINALS_BURST,
  FLOOD_MEMORY_MS,
  MAX_KEPT_CHARS,
  MAX_PACED_ENTRIES,
} from './call-stream.protocol';
import { FinalsPacer } from './finals-pacer';
import { KeptWords } from './kept-words';

describe('FinalsPacer', () => {
  it('paces each call on its own: a flooding call does not slow another caller', () => {
    let now = 0;
    const sut = new FinalsPacer(() => now);
    const burst = () => Array.from({ length: FINALS_BURST + 1 }, () => sut.take('key:a', 'c1'));
    expect(burst()).toEqual([...Array<string>(FINALS_BURST).fill('build'), 'keep']);
    expect(sut.take('key:b', 'c1')).toBe('build');
    now += 1000;
    // One token back, and the caller's shared flooding budget has one: built.
    expect(sut.take('key:a', 'c1')).toBe('build');
    now += 1000;
    expect(sut.take('key:a', 'c1')).toBe('build');
    now += FLOOD_MEMORY_MS;
    expect(sut.take('key:a', 'c1')).toBe('build');
  });

  it("one caller's flooding calls share one budget; its calls that keep their cadence do not", () => {
    let now = 0;
    const sut = new FinalsPacer(() => now);
    const calls = Array.from({ length: 20 }, (_, n) => `flood-${n}`);
    calls.forEach((call) => {
      for (let i = 0; i <= FINALS_BURST; i++) {
        sut.take('key:a', call);
      }
    });
    now += 2000;
    const built = calls.filter((call) => sut.take('key:a', call) === 'build');
    expect(built).toHaveLength(1);
    expect(sut.take('key:a', 'calm-call')).toBe('build');
  });

  it('hostile: endless call ids and callers keep its maps bounded', () => {
    let now = 0;
    const sut = new FinalsPacer(() => now);
    for (let n = 0; n < MAX_PACED_ENTRIES * 3; n++) {
      now += 1;
      for (let i = 0; i <= FINALS_BURST; i++) {
        sut.take(`ip:${n}`, `call-${n}-${'x'.repeat(64)}`);
      }
    }
    expect(sut.size.calls).toBeLessThanOrEqual(MAX_PACED_ENTRIES);
    expect(sut.size.callers).toBeLessThanOrEqual(MAX_PACED_ENTRIES);
  });
});

describe('KeptWords', () => {
  it('carries kept words in front of the next built transcript, once', () => {
    const sut = new KeptWords();
    expect(sut.takeWith('  as sent  ')).toBe('  as sent  ');
    sut.add(' my order ');
    sut.add('number is');
    expect(sut.takeWith('ORD-48213')).toBe('my order number is ORD-48213');
    expect(sut.empty).toBe(true);
  });

  it(`hostile: kept finals of ${MAX_KEPT_CHARS} characters stay within a transcript's bound, newest words kept`, () => {
    const sut = new KeptWords();
    for (let i = 0; i < 50; i++) {
      sut.add(`w${i} `.repeat(MAX_KEPT_CHARS / 4).slice(0, MAX_KEPT_CHARS));
    }
    sut.add('x'.repeat(MAX_KEPT_CHARS)); // one word the whole bound long
    const own = 'y'.repeat(MAX_KEPT_CHARS);
    const merged = sut.takeWith(own);
    expect(merged).toBe(own);
    sut.add('a b c');
    expect(sut.takeWith('z'.repeat(MAX_KEPT_CHARS - 2))).toBe(
      `c ${'z'.repeat(MAX_KEPT_CHARS - 2)}`,
    );
  });
});
