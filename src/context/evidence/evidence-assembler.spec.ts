import { PromptService, TokenCounter } from '@app/prompt';
import { RedactionService } from '@app/redaction';

import { type AppConfig } from '../../config/app-config';
import { type PoolCandidate } from '../../retrieval/hybrid-search.service';
import { EvidenceAssembler, scoredPool } from './evidence-assembler';

const counter = new TokenCounter();
const config = { context: { finalK: 5, maxExcerpts: 12, poolK: 20 } } as AppConfig;
const sut = new EvidenceAssembler(config, new RedactionService({}), new PromptService(counter, {}));

/** A six-turn window of its own conversation; one turn names `topic`. */
const candidate = (i: number, topic: string): PoolCandidate => ({
  id: `w${i}`,
  content: [
    'customer: hello, I have a question',
    'agent: sure, how can I help you today',
    `customer: about the ${topic} from my visit`,
    `agent: the ${topic} is noted on your file`,
    'customer: thank you very much',
    'agent: you are welcome, goodbye',
  ].join('\n'),
  vectorScore: 0.5,
  payload: {
    contact_uid: 'c',
    location_uid: null,
    conversation_uid: `conv-${i}`,
    channel: 'sms',
    occurred_at: new Date(Date.UTC(2025, 0, i + 1)).toISOString(),
  },
});

/** Twelve windows, one per conversation, all about the refund, scores 1.00 down to 0.89. */
const pool = scoredPool(
  Array.from({ length: 12 }, (_, i) => candidate(i, 'refund')),
  (_, i) => 1 - i / 100,
);

describe('EvidenceAssembler', () => {
  it('final_k given is a hard cap; without it FINAL_K is the base and CONTEXT_MAX_EXCERPTS the most', () => {
    expect(sut.limits(3)).toEqual({ baseK: 3, maxK: 3 });
    expect(sut.limits(undefined)).toEqual({ baseK: 5, maxK: 12 });
    const capped = sut.assemble('refund', pool, sut.limits(3), 10_000);
    // The pool is never smaller than the excerpts the bundle may hold.
    expect(sut.poolSize(3, undefined)).toBe(20);
    expect(sut.poolSize(3, 5)).toBe(5);
    expect(sut.poolSize(undefined, 5)).toBe(12);
    expect(capped.excerpts).toHaveLength(3);
  });

  it('fills past FINAL_K with distinct excerpts when final_k is not given', () => {
    const five = sut.assemble('refund', pool, sut.limits(5), 1500);
    const filled = sut.assemble('refund', pool, sut.limits(undefined), 1500);
    expect(five.excerpts).toHaveLength(5);
    expect(filled.excerpts).toHaveLength(12);
    // Twelve different windows, best first, none repeated.
    expect(filled.excerpts.map((e) => e.id)).toEqual(pool.map((w) => w.id));
    expect(five.excerpts.map((e) => e.id)).toEqual(pool.slice(0, 5).map((w) => w.id));
    // Everything fits whole: nothing is trimmed when the budget does not bind.
    expect(filled.excerpts.map((e) => e.content)).toEqual(pool.map((w) => w.content));
  });

  it('fits by marginal value: cores for all, then neighbours, better excerpts first', () => {
    const whole = counter.count(pool[0].content);
    const sut11 = sut.assemble('refund', pool, sut.limits(undefined), 11 * whole);
    expect(sut11.excerpts).toHaveLength(12); // cores made room for all twelve
    expect(sut11.excerpts[0].content).toBe(pool[0].content);
    // Trimmed ones are a tail: no excerpt is cut while a lower one is whole.
    const cut = sut11.excerpts.map((e) => e.content !== pool.find((w) => w.id === e.id)!.content);
    expect(cut).toEqual([...cut].sort((a, b) => Number(a) - Number(b)));
    expect(cut.some(Boolean)).toBe(true);
    // The last is the matching turns (two here) and their neighbours, speaker lines kept.
    expect(sut11.excerpts[11].content).toBe(
      [
        'agent: sure, how can I help you today',
        'customer: about the refund from my visit',
        'agent: the refund is noted on your file',
        'customer: thank you very much',
      ].join('\n'),
    );
    expect(sut11.token_count).toBe(
      sut11.excerpts.reduce((n, e) => n + counter.count(e.content), 0),
    );
    expect(sut11.token_count).toBeLessThanOrEqual(11 * whole);
  });

  it('says why each window is out: budget for chosen excerpts the tokens did not reach', () => {
    const tight = sut.assemble('refund', pool, sut.limits(undefined), 60);
    expect(tight.excerpts.length).toBeLessThan(12);
    expect(tight.token_count).toBeLessThanOrEqual(60);
    expect(tight.budgetDropped).toBe(12 - tight.excerpts.length);
    expect(tight.dropped.get('w11')).toEqual({ reason: 'budget' });
  });
});
