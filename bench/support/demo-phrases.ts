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

/** Calls in progress at once in {@link demoAliceCallBody}'s traffic; turns each call lasts. */
const CALL_LANES = 8;
const TURNS_PER_CALL = 6;

/**
 * The `i`th `/context` chunk of live-call traffic about the demo contact: 8 calls at a time,
 * each 6 final chunks long, so every chunk after a call's first searches its coalesced tail and
 * recalls the call's earlier turns (call memory), as bench:context's live calls do. `tag`
 * keeps two servers' call ids apart.
 */
export function demoAliceCallBody(tag: string, i: number): Record<string, unknown> {
  const lane = i % CALL_LANES;
  const call = lane + CALL_LANES * Math.floor(Math.floor(i / CALL_LANES) / TURNS_PER_CALL);
  return { ...demoAliceBody('context', i), call_id: `bench-${tag}-${call}` };
}
