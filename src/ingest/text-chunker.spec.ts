import { chunkText } from './text-chunker';

describe('chunkText', () => {
  const sentence = (i: number) => `Sentence number ${i} has exactly seven words.`;

  it('keeps short text whole', () => {
    expect(chunkText('One short paragraph.  With two sentences.')).toEqual([
      'One short paragraph. With two sentences.',
    ]);
  });

  it('cuts at sentence boundaries under the word budget, carrying one sentence over', () => {
    const text = Array.from({ length: 10 }, (_, i) => sentence(i)).join(' ');
    const sut = chunkText(text, 21);
    expect(sut.length).toBeGreaterThan(1);
    for (const chunk of sut) {
      expect(chunk.split(' ').length).toBeLessThanOrEqual(21);
      expect(chunk.endsWith('.')).toBe(true);
    }
    expect(sut[1].startsWith(sut[0].split('. ').pop() as string)).toBe(true);
    expect(sut.join(' ')).toContain(sentence(9));
  });

  it('returns nothing for blank text', () => {
    expect(chunkText('   ')).toEqual([]);
  });
});
