import { DependencyError } from '@app/common';
import { type LlmService } from '@app/llm';
import { TokenCounter } from '@app/prompt';

import { strictDouble } from '../../test/support/doubles';
import { type AppConfig } from '../config/app-config';
import { ChatService, MIN_ANSWER_TOKENS, type PreparedAnswer } from './chat.service';
import { type ChatEvent, OUT_OF_SCOPE_TEXT } from './chat-events';
import { type KbRetrieval, type KbRetrievalService } from './kb-retrieval.service';
import { type KbHit } from './merge-kb-hits';

const config = { chat: { companyName: 'Acme', themeBoost: 0.05 } } as AppConfig;
const kbHit: KbHit = {
  collection: 'source_chunks',
  id: 'h1',
  text: 'Circles group roles.',
  score: 0.9,
  topicId: 'topic_circles',
  title: 'Circles',
  themeId: 'theme_roles',
};
const retrieval = (merged: KbHit[]) =>
  strictDouble<KbRetrievalService>({
    retrieve: jest.fn(() =>
      Promise.resolve({
        merged,
        sourceChunks: merged,
        topicSummaries: [],
        citations: merged.map((h) => ({ id: h.topicId, title: h.title })),
        currentThemeId: null,
        threshold: 0.5,
      } satisfies KbRetrieval),
    ),
  });

/** An LLM double that yields `deltas`, then optionally fails. */
const llm = (deltas: string[], failure?: Error) =>
  strictDouble<LlmService>({
    stream: async function* () {
      await Promise.resolve();
      yield* deltas;
      if (failure) {
        throw failure;
      }
    },
  });

async function collect(
  sut: ChatService,
  prepared: PreparedAnswer,
  signal = new AbortController().signal,
) {
  const events: ChatEvent[] = [];
  for await (const event of sut.answer(prepared, signal)) {
    events.push(event);
  }
  return events;
}

const longAnswer = Array.from({ length: 30 }, (_, i) => `word${i} `);

describe('ChatService', () => {
  it('rejects a too-short query with the spec’s code before retrieving', async () => {
    const kb = retrieval([kbHit]);
    const sut = new ChatService(kb, llm([]), config);
    await expect(
      sut.prepare({ query: '  a ', userId: 'u1' }, new AbortController().signal),
    ).rejects.toMatchObject({ code: 'query_too_short', httpStatus: 400 });
    expect(kb.retrieve).not.toHaveBeenCalled();
  });

  it('goes out of scope without calling the model when nothing passed the threshold', async () => {
    const sut = new ChatService(retrieval([]), llm(longAnswer), config);
    const prepared = await sut.prepare(
      { query: 'tax law?', userId: 'u1' },
      new AbortController().signal,
    );
    expect(prepared).toEqual({ kind: 'out_of_scope' });
    expect(await collect(sut, prepared)).toEqual([
      { type: 'out_of_scope', text: OUT_OF_SCOPE_TEXT },
      { type: 'done' },
    ]);
  });

  it('builds the spec prompts with history and streams chunks, then citations, then done', async () => {
    const sut = new ChatService(retrieval([kbHit]), llm(longAnswer), config);
    const prepared = await sut.prepare(
      {
        query: 'What is a circle?',
        userId: 'u1',
        history: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
        ],
      },
      new AbortController().signal,
    );
    if (prepared.kind !== 'generate') {
      throw new Error('expected an answer');
    }
    expect(prepared.request.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(prepared.request.messages[2].content).toContain('Circles group roles.');
    expect(prepared.request.system).toContain('Acme');
    const events = await collect(sut, prepared);
    const chunks = events.filter((e) => e.type === 'chunk');
    // The first 20 tokens go out as one held-back chunk, the rest as they come.
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.map((c) => (c as { text: string }).text).join('')).toBe(longAnswer.join(''));
    expect(events.slice(-2)).toEqual([
      { type: 'citations', topics: [{ id: 'topic_circles', title: 'Circles' }] },
      { type: 'done' },
    ]);
  });

  it('turns a reply under 20 tokens into out_of_scope with no citations', async () => {
    const sut = new ChatService(retrieval([kbHit]), llm(['I ', 'do not ', 'know.']), config);
    const prepared = await sut.prepare(
      { query: 'What is a circle?', userId: 'u1' },
      new AbortController().signal,
    );
    expect(await collect(sut, prepared)).toEqual([
      { type: 'out_of_scope', text: OUT_OF_SCOPE_TEXT },
      { type: 'done' },
    ]);
  });

  it('treats the model’s own "not covered" sentence as out of scope, though it is long', async () => {
    const words = OUT_OF_SCOPE_TEXT.split(/(?<= )/);
    const sut = new ChatService(retrieval([kbHit]), llm(words), config);
    const prepared = await sut.prepare(
      { query: 'What is a circle?', userId: 'u1' },
      new AbortController().signal,
    );
    expect((await collect(sut, prepared)).map((e) => e.type)).toEqual(['out_of_scope', 'done']);
  });

  it('reports a mid-stream model failure as an error event followed by done', async () => {
    const failure = new DependencyError('llm_failed', 'The model is overloaded.');
    const sut = new ChatService(retrieval([kbHit]), llm(longAnswer, failure), config);
    const prepared = await sut.prepare(
      { query: 'What is a circle?', userId: 'u1' },
      new AbortController().signal,
    );
    const events = await collect(sut, prepared);
    expect(events.slice(-2)).toEqual([
      { type: 'error', error: 'llm_failed', message: 'The model is overloaded.' },
      { type: 'done' },
    ]);
    expect(events.some((e) => e.type === 'citations')).toBe(false);
  });

  it('stops silently once the client has gone', async () => {
    const sut = new ChatService(retrieval([kbHit]), llm(longAnswer), config);
    const prepared = await sut.prepare(
      { query: 'What is a circle?', userId: 'u1' },
      new AbortController().signal,
    );
    const gone = new AbortController();
    gone.abort();
    expect(await collect(sut, prepared, gone.signal)).toEqual([]);
  });

  it('holds back exactly 20 tokens: 19 is out of scope, 20 is an answer', async () => {
    const counter = new TokenCounter();
    const reply = (tokens: number) => {
      const words = Array.from({ length: 40 }, (_, i) => `w${i} `);
      let text = '';
      for (const word of words) {
        if (counter.count(text + word) > tokens) {
          break;
        }
        text += word;
      }
      // Pad with single-token pieces until the count is exact.
      while (counter.count(text + '.') <= tokens && counter.count(text) < tokens) {
        text += '.';
      }
      expect(counter.count(text)).toBe(tokens);
      return text;
    };
    const run = async (text: string) => {
      const sut = new ChatService(retrieval([kbHit]), llm(text.split(/(?<= )/)), config);
      const prepared = await sut.prepare(
        { query: 'What is a circle?', userId: 'u1' },
        new AbortController().signal,
      );
      return (await collect(sut, prepared)).map((e) => e.type);
    };
    expect(await run(reply(MIN_ANSWER_TOKENS - 1))).toEqual(['out_of_scope', 'done']);
    expect((await run(reply(MIN_ANSWER_TOKENS))).slice(-2)).toEqual(['citations', 'done']);
  });

  it('recognises the refusal with curly apostrophes and emphasis', async () => {
    const variant = `**${OUT_OF_SCOPE_TEXT.replace("doesn't", 'doesn’t')}**`;
    const sut = new ChatService(retrieval([kbHit]), llm(variant.split(/(?<= )/)), config);
    const prepared = await sut.prepare(
      { query: 'What is a circle?', userId: 'u1' },
      new AbortController().signal,
    );
    expect((await collect(sut, prepared)).map((e) => e.type)).toEqual(['out_of_scope', 'done']);
  });
});
