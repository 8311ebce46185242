/**
 * Transcript chunks about the demo contact ctc_demo_alice's history. The overhead benches
 * append a request number, so every request differs in text and embeds.
 */
export const DEMO_ALICE_PHRASES = [
  'can you check my order number',
  'the leg on my table is scratched',
  'when will my dining table ship',
  'I want to return two of the chairs',
  'please text me when it ships',
];

/** The `i`th hot-path request body for the demo contact: `/context` or `/search`, never cached. */
export function demoAliceBody(route: 'context' | 'search', i: number): Record<string, unknown> {
  const text = `${DEMO_ALICE_PHRASES[i % DEMO_ALICE_PHRASES.length]} (ref ${i})`;
  return route === 'context'
    ? { transcript: text, contact_uid: 'ctc_demo_alice' }
    : { query: text, contact_uid: 'ctc_demo_alice', top_k: 5 };
}
