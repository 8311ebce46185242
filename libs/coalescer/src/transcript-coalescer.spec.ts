import { ConfigurationError } from '@app/common';
import { Logger } from '@nestjs/common';

import { resolveCoalescerConfig } from './coalescer.config';
import { type CoalescerModuleOptions } from './coalescer.module-definition';
import { type CoalescerStateStore } from './interfaces/coalescer-state-store.interface';
import { MemoryStateStore } from './memory/memory-state.store';
import { TranscriptCoalescer } from './transcript-coalescer';

function setup(options: CoalescerModuleOptions = {}) {
  let t = 1_000; // lru-cache treats a start time of 0 as "no TTL recorded"
  const clock = { now: () => t, advance: (ms: number) => (t += ms) };
  const config = resolveCoalescerConfig(options);
  const store = new MemoryStateStore({
    maxCalls: config.maxCalls,
    ttlMs: config.ttlMs,
    perf: clock,
  });
  return { sut: new TranscriptCoalescer(store, config), store, clock };
}

/** A store whose every call fails, as an unreachable backend would. */
function failingStore(): CoalescerStateStore {
  const fail = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6390'));
  return {
    get: jest.fn(fail),
    set: jest.fn(fail),
    delete: jest.fn(fail),
    close: jest.fn(() => Promise.resolve()),
  };
}

describe('TranscriptCoalescer', () => {
  it('joins an order number split across two chunks into one query', async () => {
    const { sut } = setup();
    await expect(sut.feed('call-1', 'my order number is')).resolves.toEqual({
      query: 'my order number is',
      tail: '',
      degraded: false,
    });
    await expect(sut.feed('call-1', 'ABC-12345')).resolves.toEqual({
      query: 'my order number is ABC-12345',
      tail: 'my order number is',
      degraded: false,
    });
  });

  it('accumulates several very short chunks', async () => {
    const { sut } = setup();
    await sut.feed('call-1', 'my order');
    await sut.feed('call-1', 'number is');
    const { query } = await sut.feed('call-1', 'ABC-12345');
    expect(query).toBe('my order number is ABC-12345');
  });

  it('prepends a word-bounded tail of 8 words by default, never part of a word', async () => {
    const { sut } = setup();
    await sut.feed(
      'call-1',
      'so I was calling because the package that was supposed to arrive yesterday',
    );
    const { tail, query } = await sut.feed('call-1', 'never showed up');
    expect(tail).toBe('the package that was supposed to arrive yesterday');
    expect(tail.split(' ')).toHaveLength(8);
    expect(query).toBe('the package that was supposed to arrive yesterday never showed up');
  });

  it('honours tailWords and tailMs (150 words a minute, at least one word)', async () => {
    const three = setup({ tailWords: 3 }).sut;
    await three.feed('c', 'one two three four five');
    await expect(three.feed('c', 'six')).resolves.toMatchObject({ tail: 'three four five' });

    const specDefault = setup({ tailMs: 200 }).sut; // half a word, rounded up to one
    await specDefault.feed('c', 'my order number is');
    await expect(specDefault.feed('c', 'ABC-12345')).resolves.toMatchObject({
      query: 'is ABC-12345',
    });

    expect(resolveCoalescerConfig({ tailMs: 3000 }).tailWords).toBe(8);
  });

  it('keeps no state without a call_id, and none when tailWords is 0', async () => {
    const { sut, store } = setup();
    await sut.feed(undefined, 'my order number is');
    await expect(sut.feed(undefined, ' ABC-12345 ')).resolves.toEqual({
      query: 'ABC-12345',
      tail: '',
      degraded: false,
    });
    expect(store.size).toBe(0);

    const off = setup({ tailWords: 0 });
    await off.sut.feed('c', 'my order number is');
    await expect(off.sut.feed('c', 'ABC-12345')).resolves.toMatchObject({ query: 'ABC-12345' });
  });

  it('keeps calls apart', async () => {
    const { sut } = setup();
    await sut.feed('call-a', 'my order number is');
    await sut.feed('call-b', 'I want to cancel');
    await expect(sut.feed('call-a', 'ABC-12345')).resolves.toMatchObject({
      query: 'my order number is ABC-12345',
    });
    await expect(sut.feed('call-b', 'my subscription')).resolves.toMatchObject({
      query: 'I want to cancel my subscription',
    });
  });

  it('forgets a call after the TTL of silence', async () => {
    const { sut, clock } = setup({ ttlMs: 10_000 });
    await sut.feed('call-1', 'my order number is');
    clock.advance(10_001);
    await expect(sut.feed('call-1', 'ABC-12345')).resolves.toMatchObject({
      query: 'ABC-12345',
      tail: '',
    });
  });

  it('bounds the number of calls held (least recently fed evicted)', async () => {
    const { sut, store } = setup({ maxCalls: 2 });
    await sut.feed('a', 'alpha');
    await sut.feed('b', 'bravo');
    await sut.feed('c', 'charlie');
    expect(store.size).toBe(2);
    await expect(sut.feed('a', 'again')).resolves.toMatchObject({ tail: '' });
  });

  it('does not double words the transcriber repeated from the previous chunk', async () => {
    const { sut } = setup();
    await sut.feed('call-1', 'my order number is');
    await expect(sut.feed('call-1', 'number is ABC-12345')).resolves.toMatchObject({
      query: 'my order number is ABC-12345',
    });
  });

  it('never stores an oversized tail', async () => {
    const { sut, store } = setup({ maxTailChars: 20 });
    await sut.feed('call-1', `ok ${'x'.repeat(5000)}`);
    await expect(store.get('call-1')).resolves.toBeUndefined();
    await sut.feed('call-1', 'my order number is ABC-12345');
    await expect(store.get('call-1')).resolves.toBe('number is ABC-12345');
  });

  it('forget() drops the call', async () => {
    const { sut } = setup();
    await sut.feed('call-1', 'my order number is');
    await sut.forget('call-1');
    await expect(sut.feed('call-1', 'ABC-12345')).resolves.toMatchObject({ tail: '' });
  });

  it('answers without a tail when the store fails, and logs once per outage', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const sut = new TranscriptCoalescer(failingStore(), resolveCoalescerConfig({}));

    await expect(sut.feed('call-1', 'my order number is')).resolves.toEqual({
      query: 'my order number is',
      tail: '',
      degraded: true,
    });
    await expect(sut.feed('call-1', 'ABC-12345')).resolves.toMatchObject({
      query: 'ABC-12345',
      degraded: true,
    });
    await expect(sut.forget('call-1')).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).not.toContain('order');
    warn.mockRestore();
  });

  it('rejects bad options, listing every problem', () => {
    expect(() =>
      resolveCoalescerConfig({ tailWords: 8, tailMs: 3000, ttlMs: 0, maxCalls: -1 }),
    ).toThrow(ConfigurationError);
    expect(() =>
      resolveCoalescerConfig({ tailWords: 8, tailMs: 3000, ttlMs: 0, maxCalls: -1 }),
    ).toThrow(/tailWords or tailMs.*ttlMs.*maxCalls/);
    expect(() => resolveCoalescerConfig({ tailWords: 2.5 })).toThrow(/tailWords/);
  });
});
