const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/**
 * Splits prose into sentence-bounded chunks of about `maxWords` words, repeating the last
 * sentence of each chunk at the start of the next so no statement is cut off from its lead-in.
 */
export function chunkText(text: string, maxWords = 90): string[] {
  const sentences = [...segmenter.segment(text.replace(/\s+/g, ' ').trim())]
    .map((s) => s.segment.trim())
    .filter((s) => s.length > 0);
  const chunks: string[] = [];
  let current: string[] = [];
  let words = 0;
  for (const sentence of sentences) {
    const n = sentence.split(' ').length;
    if (words + n > maxWords && current.length > 0) {
      chunks.push(current.join(' '));
      const carry = current.length > 1 ? current[current.length - 1] : undefined;
      current = carry ? [carry] : [];
      words = carry ? carry.split(' ').length : 0;
    }
    current.push(sentence);
    words += n;
  }
  if (current.length > 0) {
    chunks.push(current.join(' '));
  }
  return chunks;
}
