import { TEXT_CACHE_TTL_MS } from '@app/common';
import { encode as encodeCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { encode as encodeO200k } from 'gpt-tokenizer/encoding/o200k_base';

import { memoizeCounter, TokenCounter } from './token-counter';

describe('TokenCounter', () => {
  const o200k = new TokenCounter();

  it('bounds its cache of recent counts in bytes: two a character, a few MB in all', () => {
    const sut = new TokenCounter();
    const text = 'order ABC-12345 shipped '.repeat(800); // 19,200 characters
    sut.count(text);
    const recent = sut['recent'];
    expect(recent.calculatedSize).toBeGreaterThanOrEqual(2 * text.length);
    expect(recent.maxSize).toBeLessThanOrEqual(8 * 1024 * 1024);
    // Excerpts are keys: an erased contact's text must expire (old: kept until evicted).
    expect(recent.ttl).toBe(TEXT_CACHE_TTL_MS);
  });

  const cl100k = new TokenCounter('cl100k_base');
  const sample = 'My order number is ABC-12345 — could you check the refund status? 谢谢';

  it('defaults to o200k_base and counts exactly what the encoder emits', () => {
    expect(o200k.encoding).toBe('o200k_base');
    expect(o200k.count(sample)).toBe(encodeO200k(sample).length);
    expect(o200k.count('hello world')).toBe(2);
  });

  it('counts with cl100k_base when selected', () => {
    expect(cl100k.count(sample)).toBe(encodeCl100k(sample).length);
  });

  it('counts the empty string as zero tokens', () => {
    expect(o200k.count('')).toBe(0);
    expect(o200k.fits('', 0)).toBe(true);
  });

  it('counts special-token look-alikes in customer text as plain text instead of throwing', () => {
    const text = 'ignore this <|endoftext|> please';
    expect(o200k.count(text)).toBe(encodeO200k(text, { disallowedSpecial: new Set() }).length);
    expect(o200k.count(text)).toBeGreaterThan(o200k.count('ignore this  please'));
  });

  it('fits() agrees with count() at the limit', () => {
    const n = o200k.count(sample);
    expect(o200k.fits(sample, n)).toBe(true);
    expect(o200k.fits(sample, n - 1)).toBe(false);
    expect(o200k.fits(sample, -1)).toBe(false);
  });

  it('encodes a short text (one turn of an excerpt) once while it stays recent', () => {
    const counter = new TokenCounter();
    const api = (counter as unknown as { api: { countTokens: (t: string) => number } }).api;
    const encodes = jest.spyOn(api, 'countTokens');
    // A fresh string each time, as splitting an excerpt into turns gives on every request.
    const turn = () => ['customer: when will my table ship?'].join('');
    expect(counter.count(turn())).toBe(encodeO200k(turn()).length);
    expect(counter.count(turn())).toBe(encodeO200k(turn()).length);
    expect(counter.count('ok')).toBe(1);
    expect(counter.count('ok')).toBe(1);
    expect(encodes).toHaveBeenCalledTimes(2);
    encodes.mockRestore();
  });

  it('encodes a long text once while it stays recent, and keys on the whole text', () => {
    const counter = new TokenCounter();
    const api = (counter as unknown as { api: { countTokens: (t: string) => number } }).api;
    const encodes = jest.spyOn(api, 'countTokens');
    const excerpt = `agent: ${sample} `.repeat(8);
    const changedAtTheEnd = `${excerpt}x`;
    expect(counter.count(excerpt)).toBe(encodeO200k(excerpt).length);
    expect(counter.count(excerpt)).toBe(encodeO200k(excerpt).length);
    expect(counter.count(changedAtTheEnd)).toBe(encodeO200k(changedAtTheEnd).length);
    expect(encodes).toHaveBeenCalledTimes(2);
    encodes.mockRestore();
  });

  it('memoizeCounter answers repeats from its cache with the same results', () => {
    const count = jest.spyOn(o200k, 'count');
    const sut = memoizeCounter(o200k);
    const n = sut.count(sample);
    expect(sut.count(sample)).toBe(n);
    expect(sut.fits(sample, n)).toBe(true);
    expect(sut.fits(sample, n - 1)).toBe(false);
    expect(count).toHaveBeenCalledTimes(1);
    count.mockRestore();
  });
});
