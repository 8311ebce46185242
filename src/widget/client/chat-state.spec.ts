import {
  type ChatAction,
  type ChatEvent,
  type ChatState,
  historyFor,
  INITIAL_STATE,
  isBusy,
  reduce,
} from './chat-state';

const run = (...actions: ChatAction[]): ChatState => actions.reduce(reduce, INITIAL_STATE);
const ev = (event: ChatEvent): ChatAction => ({ type: 'event', event });
const ask = (question: string, keepHistory = false): ChatAction => ({
  type: 'ask',
  question,
  keepHistory,
});
const topics = [{ id: 'topic_giving_feedback', title: 'Giving feedback' }];
const answered = (question: string, text: string): ChatAction[] => [
  ask(question, true),
  ev({ type: 'chunk', text }),
  ev({ type: 'citations', topics }),
  ev({ type: 'done' }),
];

describe('chat state', () => {
  it('grows the answer chunk by chunk and shows citations only after done', () => {
    let sut = run({ type: 'open' }, ask('How do I give feedback?'));
    expect(sut.exchanges[0].status).toBe('waiting');
    sut = reduce(sut, ev({ type: 'chunk', text: 'Be ' }));
    sut = reduce(sut, ev({ type: 'chunk', text: 'specific.' }));
    expect(sut.exchanges[0]).toMatchObject({ status: 'streaming', answer: 'Be specific.' });
    sut = reduce(sut, ev({ type: 'citations', topics }));
    expect(sut.exchanges[0].citations).toEqual([]);
    expect(isBusy(sut)).toBe(true);
    sut = reduce(sut, ev({ type: 'done' }));
    expect(sut.exchanges[0]).toMatchObject({ status: 'answered', citations: topics });
    expect(isBusy(sut)).toBe(false);
  });

  it('shows the out-of-scope text with no citations', () => {
    const sut = run(
      { type: 'open' },
      ask('Which river flows through Budapest?'),
      ev({ type: 'out_of_scope', text: 'Not covered.' }),
      ev({ type: 'done' }),
    );
    expect(sut.exchanges[0]).toMatchObject({ status: 'out_of_scope', answer: 'Not covered.' });
    expect(sut.exchanges[0].citations).toEqual([]);
  });

  it('turns an error event, a pre-stream failure or a cut-off stream into a retryable failure', () => {
    const start = run({ type: 'open' }, ask('What is a circle?'), ev({ type: 'chunk', text: 'A' }));
    const errored = [
      ev({ type: 'error', error: 'llm_failed', message: 'x' }),
      ev({ type: 'done' }),
    ];
    expect(errored.reduce(reduce, start).exchanges[0].failure?.code).toBe('llm_failed');
    const failure = { code: 'rate_limited', message: 'wait' };
    expect(reduce(start, { type: 'failed', failure }).exchanges[0].failure).toEqual(failure);
    expect(reduce(start, { type: 'ended' }).exchanges[0].failure?.code).toBe('stream_interrupted');
    // A done with no answer at all is not an answer either.
    const empty = run({ type: 'open' }, ask('What is a circle?'), ev({ type: 'done' }));
    expect(empty.exchanges[0].status).toBe('failed');

    const retried = reduce(reduce(start, { type: 'ended' }), { type: 'retry' });
    expect(retried.exchanges[0]).toMatchObject({
      question: 'What is a circle?',
      status: 'waiting',
      answer: '',
    });
  });

  it('ignores events after the exchange settled, and a second question while busy', () => {
    const settled = run({ type: 'open' }, ...answered('Q1', 'A1'));
    expect(reduce(settled, ev({ type: 'chunk', text: 'late' }))).toBe(settled);
    expect(reduce(settled, { type: 'ended' })).toBe(settled);
    const busy = run({ type: 'open' }, ask('Q1'));
    expect(reduce(busy, ask('Q2'))).toBe(busy);
    expect(reduce(busy, { type: 'retry' })).toBe(busy);
  });

  it('asks nothing while closed or with a blank question', () => {
    expect(run(ask('Q1')).exchanges).toEqual([]);
    expect(run({ type: 'open' }, ask('   ')).exchanges).toEqual([]);
  });

  it('clears everything on close, so reopening is empty', () => {
    const sut = run({ type: 'open' }, ...answered('Q1', 'A1'), ask('Q2', true), { type: 'close' });
    expect(sut).toEqual(INITIAL_STATE);
    expect(reduce(sut, { type: 'open' })).toEqual({ open: true, exchanges: [] });
  });

  it('keeps earlier exchanges only with history on, and sends answered ones as turns', () => {
    const without = run({ type: 'open' }, ...answered('Q1', 'A1'), ask('Q2'));
    expect(without.exchanges.map((e) => e.question)).toEqual(['Q2']);
    const failure = { code: 'x', message: 'x' };
    const afterFailure = run({ type: 'open' }, ask('Q1', true), { type: 'failed', failure });
    expect(reduce(afterFailure, ask('Q2', true)).exchanges.map((e) => e.question)).toEqual(['Q2']);

    const sut = run(
      { type: 'open' },
      ...answered('Q1', 'A1'),
      ask('Q2', true),
      ev({ type: 'out_of_scope', text: 'Not covered.' }),
      ev({ type: 'done' }),
      ...answered('Q3', 'A3'),
      ask('Q4', true),
    );
    expect(historyFor(sut)).toEqual([
      { role: 'user', content: 'Q1' },
      { role: 'assistant', content: 'A1' },
      { role: 'user', content: 'Q3' },
      { role: 'assistant', content: 'A3' },
    ]);
    expect(historyFor(sut, 2)).toEqual([
      { role: 'user', content: 'Q3' },
      { role: 'assistant', content: 'A3' },
    ]);
  });

  it('cuts a long answer to the server limit without splitting an emoji', () => {
    // The server refuses a lone surrogate: a cut through the emoji failed the next question.
    const answer = `${'a'.repeat(3_999)}\u{1f600}${'b'.repeat(100)}`;
    const sut = run({ type: 'open' }, ...answered('Q1', answer), ask('Q2', true));
    expect(historyFor(sut)[1]).toEqual({ role: 'assistant', content: 'a'.repeat(3_999) });
  });
});
