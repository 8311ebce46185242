import {
  FINALS_BURST,
  FLOOD_MEMORY_MS,
  MAX_KEPT_CHARS,
  MAX_PACED_ENTRIES,
  MAX_TRANSCRIPT_CHARS,
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

  it("a stopped stream's kept words: always for a call at its cadence, a flooding caller's within its shared budget", () => {
    let now = 0;
    const sut = new FinalsPacer(() => now);
    expect(sut.mayRemember('key:a', 'never-seen')).toBe(true);
    const calls = Array.from({ length: 10 }, (_, n) => `flood-${n}`);
    calls.forEach((call) => {
      for (let i = 0; i <= FINALS_BURST; i++) {
        sut.take('key:a', call);
      }
    });
    expect(calls.filter((call) => sut.mayRemember('key:a', call))).toHaveLength(1);
    expect(sut.mayRemember('key:b', 'calm')).toBe(true);
    now += FLOOD_MEMORY_MS;
    expect(calls.every((call) => sut.mayRemember('key:a', call))).toBe(true);
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

  it(`hostile: kept finals of ${MAX_TRANSCRIPT_CHARS} characters keep only the newest ${MAX_KEPT_CHARS}; a built transcript stays within its bound`, () => {
    const sut = new KeptWords();
    for (let i = 0; i < 50; i++) {
      sut.add(`w${i} `.repeat(MAX_TRANSCRIPT_CHARS / 4).slice(0, MAX_TRANSCRIPT_CHARS));
    }
    const kept = sut.take();
    expect(kept.length).toBeLessThanOrEqual(MAX_KEPT_CHARS);
    expect(kept.endsWith('w49')).toBe(true);
    sut.add('x'.repeat(MAX_TRANSCRIPT_CHARS)); // one word longer than the bound: dropped whole
    expect(sut.empty).toBe(true);
    sut.add('a b c');
    const own = 'z'.repeat(MAX_TRANSCRIPT_CHARS - 2);
    expect(sut.takeWith(own)).toBe(`c ${own}`);
    sut.add('kept');
    expect(sut.takeWith('y'.repeat(MAX_TRANSCRIPT_CHARS))).toBe('y'.repeat(MAX_TRANSCRIPT_CHARS));
  });
});
