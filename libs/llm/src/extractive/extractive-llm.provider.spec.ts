import fc from 'fast-check';

import { type GenerationRequest } from '../interfaces/llm-provider.interface';
import { ExtractiveLlmProvider } from './extractive-llm.provider';
import { chooseSentences, scoreSentences, selectAnswer } from './select-sentences';
import { splitSentences, stem, terms } from './text';

const ROLES =
  'In a holacratic organisation, work is organised around roles instead of job titles. A role is defined by three things: its purpose, the domains it controls, and its accountabilities. One person can hold several roles at once.';
const FEEDBACK =
  'Feedback works best when it is specific, timely and focused on behaviour rather than personality. Use the situation-behaviour-impact model: describe the situation, the observable behaviour, and the impact it had. Corrective feedback should be given privately and soon after the event.';
const MEETINGS =
  'Tactical meetings are short weekly meetings for operational work. They follow a fixed structure: a check-in round, checklist review, metrics review, project updates, and then triage of tensions.';

const ask = (question: string, passages = [ROLES, FEEDBACK, MEETINGS]): GenerationRequest => ({
  system: 'ignored',
  messages: [{ role: 'user', content: 'ignored' }],
  passages,
  question,
});

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const piece of iterable) {
    out.push(piece);
  }
  return out;
}

describe('ExtractiveLlmProvider', () => {
  const sut = new ExtractiveLlmProvider();

  it('answers with the best-matching sentences, only from the passages', async () => {
    const pieces = await collect(
      sut.stream(ask('How should corrective feedback be given?'), new AbortController().signal),
    );
    const answer = pieces.join('');
    expect(answer).toContain(
      'Corrective feedback should be given privately and soon after the event.',
    );
    expect(answer).not.toContain('Tactical');
    expect(answer).not.toContain('holacratic');
    for (const sentence of splitSentences(answer)) {
      expect([ROLES, FEEDBACK, MEETINGS].some((p) => p.includes(sentence))).toBe(true);
    }
  });

  it('streams the answer progressively in small word groups', async () => {
    const request = ask('What defines a role?');
    const pieces = await collect(sut.stream(request, new AbortController().signal));
    expect(pieces.length).toBeGreaterThan(3);
    for (const piece of pieces) {
      expect(piece.trim().split(/\s+/).length).toBeLessThanOrEqual(3);
    }
    expect(pieces.join('')).toBe(selectAnswer(request.question, request.passages));
  });

  it('yields nothing when no passage shares a term with the question', async () => {
    const pieces = await collect(
      sut.stream(ask('What is the capital of France?'), new AbortController().signal),
    );
    expect(pieces).toEqual([]);
  });

  it('yields nothing for an empty context', async () => {
    expect(await collect(sut.stream(ask('roles?', []), new AbortController().signal))).toEqual([]);
  });

  it('is deterministic', async () => {
    const request = ask('What happens in a tactical meeting?');
    const first = await collect(sut.stream(request, new AbortController().signal));
    const second = await collect(
      new ExtractiveLlmProvider().stream(request, new AbortController().signal),
    );
    expect(second).toEqual(first);
  });

  it('stops with llm_failed once its signal aborts', async () => {
    const controller = new AbortController();
    const pieces: string[] = [];
    const error = await (async () => {
      for await (const piece of sut.stream(ask('What defines a role?'), controller.signal)) {
        pieces.push(piece);
        controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(pieces).toHaveLength(1);
    expect(error).toMatchObject({ code: 'llm_failed' });
  });

  it('keeps the budget implied by max_tokens', async () => {
    const small = new ExtractiveLlmProvider({ maxTokens: 40 });
    const pieces = await collect(
      small.stream(ask('feedback behaviour situation impact'), new AbortController().signal),
    );
    // 40 tokens ≈ 160 characters; the best sentence is always kept whole.
    const answer = pieces.join('');
    expect(answer.length).toBeLessThanOrEqual(160);
    expect(answer.length).toBeGreaterThan(0);
  });
});

describe('selectAnswer', () => {
  it('ranks the sentence that matches more of the question first, and keeps reading order', () => {
    const scored = scoreSentences('roles and job titles', [ROLES]).sort(
      (a, b) => b.score - a.score,
    );
    expect(scored[0].text).toBe(
      'In a holacratic organisation, work is organised around roles instead of job titles.',
    );
    const answer = selectAnswer(
      'situation behaviour impact model, and private corrective feedback',
      [FEEDBACK],
    );
    expect(answer.indexOf('Use the situation')).toBeLessThan(answer.indexOf('Corrective feedback'));
  });

  it('prefers the first passage on a tie (retrieval order)', () => {
    const a = 'Expense reports are due on Friday every week.';
    const b = 'Expense reports are due on Friday every month.';
    const scored = scoreSentences('when are expense reports due', [b, a]);
    expect(scored[0].score).toBeGreaterThan(scored[1].score);
  });

  it('pads a short match with its neighbouring sentence, so it is not mistaken for "I don\'t know"', () => {
    const passage =
      'Leave requests go through the HR portal. Your manager approves them within two working days, and you get an email once the request is approved or declined.';
    const answer = selectAnswer('How do I request leave?', [passage]);
    expect(answer).toBe(passage);
  });

  it('separates passages by a blank line and drops exact duplicates', () => {
    const answer = selectAnswer('lead link roles', [
      'The lead link assigns people to roles.',
      'The lead link assigns people to roles.',
      'Circles group related roles under a lead link.',
    ]);
    expect(answer).toBe(
      'The lead link assigns people to roles.\n\nCircles group related roles under a lead link.',
    );
  });

  it('never emits text that is not in the passages (property)', () => {
    const word = fc.constantFrom(
      'role',
      'roles',
      'circle',
      'feedback',
      'meeting',
      'Tactical',
      'lead',
      'link',
      'the',
      'a',
      'policy',
      'policies',
      'expense',
      'Friday',
      'defined',
      'review',
      '42',
      'é',
    );
    const sentence = fc
      .array(word, { minLength: 1, maxLength: 12 })
      .chain((ws) => fc.constantFrom('.', '!', '?', '').map((end) => ws.join(' ') + end));
    const passage = fc
      .array(sentence, { minLength: 1, maxLength: 5 })
      .chain((ss) => fc.constantFrom(' ', '\n').map((sep) => ss.join(sep)));
    fc.assert(
      fc.property(
        fc.array(passage, { maxLength: 6 }),
        fc.array(word, { maxLength: 8 }),
        (ps, q) => {
          const question = q.join(' ');
          const chosen = chooseSentences(question, ps);
          for (const s of chosen) {
            expect(ps[s.passage]).toContain(s.text);
            expect(s.text.length).toBeGreaterThan(0);
          }
          const answer = selectAnswer(question, ps);
          // The answer is exactly those sentences and separators, and always the same.
          expect(answer.length).toBe(
            chosen.reduce(
              (n, s, i) =>
                n + s.text.length + (i === 0 ? 0 : s.passage === chosen[i - 1].passage ? 1 : 2),
              0,
            ),
          );
          expect(selectAnswer(question, ps)).toBe(answer);
          if (terms(question).length === 0) {
            expect(answer).toBe('');
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('text helpers', () => {
  it('splits sentences without breaking on abbreviations, decimals or lower-case starts', () => {
    expect(
      splitSentences(
        'Dr. Lee said e.g. this works. Use it 3.5 times! Then stop?\n- A bullet item here',
      ),
    ).toEqual([
      'Dr. Lee said e.g. this works.',
      'Use it 3.5 times!',
      'Then stop?',
      'A bullet item here',
    ]);
  });

  it('stems inflections of one word to one key', () => {
    expect(new Set(['role', 'roles'].map(stem)).size).toBe(1);
    expect(new Set(['define', 'defined', 'defines'].map(stem)).size).toBe(1);
    expect(new Set(['policy', 'policies'].map(stem)).size).toBe(1);
    expect(new Set(['meeting', 'meetings', 'meet'].map(stem)).size).toBe(1);
    expect(terms('What is the policy on expenses?')).toEqual([stem('policy'), stem('expenses')]);
  });
});
