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
