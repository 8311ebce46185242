import { EventEmitter } from 'node:events';
import { type ServerResponse } from 'node:http';

import { type FastifyReply } from 'fastify';

import { strictDouble } from '../../test/support/doubles';
import { ChatController } from './chat.controller';
import { type ChatRequestDto } from './chat.dto';
import { type ChatService, type PreparedAnswer } from './chat.service';
import {
  CHAT_ADMIT_WAIT_MS,
  CHAT_MAX_INFLIGHT,
  CHAT_MAX_WAITING,
  ChatBusyError,
  SSE_DRAIN_TIMEOUT_MS,
  writeFrame,
} from './chat-bounds';
import { type ChatMetrics } from './chat-metrics';

/** A response whose client never reads: every write reports a full buffer, no 'drain' comes. */
function stalledResponse() {
  const raw = Object.assign(new EventEmitter(), {
    destroyed: false,
    writableFinished: false,
    write: jest.fn(() => false),
    destroy: jest.fn(() => {
      raw.destroyed = true;
      raw.emit('close');
    }),
  });
  return raw;
}

describe('writeFrame', () => {
  afterEach(() => jest.useRealTimers());

  it('drops a client that stops reading once the drain wait passes', async () => {
    jest.useFakeTimers();
    const raw = stalledResponse();
    const written = writeFrame(raw as unknown as ServerResponse, 'data: {}\n\n');
    await jest.advanceTimersByTimeAsync(SSE_DRAIN_TIMEOUT_MS - 1);
    expect(raw.destroy).not.toHaveBeenCalled(); // a slow reader gets its time
    await jest.advanceTimersByTimeAsync(1);
    await written; // old code: waits for 'drain' for as long as the socket lives
    expect(raw.destroy).toHaveBeenCalledTimes(1);
  });

  it('returns at once while the client keeps up, and never waits on a dead socket', async () => {
    const raw = stalledResponse();
    raw.write.mockReturnValue(true);
    await writeFrame(raw as unknown as ServerResponse, 'data: {}\n\n');
    raw.destroyed = true;
    await writeFrame(raw as unknown as ServerResponse, 'data: {}\n\n');
    expect(raw.write).toHaveBeenCalledTimes(1);
  });
});

describe('ChatController admission', () => {
  it(`streams at most ${CHAT_MAX_INFLIGHT} answers at once, ${CHAT_MAX_WAITING} wait; more get 503 chat_busy`, async () => {
    let finish!: (error: Error) => void;
    const held = new Promise<PreparedAnswer>((_resolve, reject) => (finish = reject));
    const chat = strictDouble<ChatService>({ prepare: jest.fn(() => held) });
    const metrics = strictDouble<ChatMetrics>({
      track: jest.fn(() => ({ see: jest.fn(), end: jest.fn() })),
    });
    const sut = new ChatController(chat, metrics);
    const reply = () => ({ raw: stalledResponse() }) as unknown as FastifyReply;
    const body = { query: 'how do circles work?', userId: 'emp_1' } as ChatRequestDto;

    const streams = Array.from({ length: CHAT_MAX_INFLIGHT + CHAT_MAX_WAITING }, () =>
      sut.chatStream(body, reply()).catch((error: unknown) => error),
    );
    await expect(sut.chatStream(body, reply())).rejects.toBeInstanceOf(ChatBusyError);
    expect(chat.prepare).toHaveBeenCalledTimes(CHAT_MAX_INFLIGHT);

    finish(new Error('retrieval down')); // the streams end: their slots come back
    // The waiting ones were admitted as slots came back (old code refused them at once).
    const outcomes = await Promise.all(streams);
    expect(outcomes.map((e) => (e as Error).message)).toEqual(streams.map(() => 'retrieval down'));
    const next = sut.chatStream(body, reply());
    await expect(next).rejects.toThrow('retrieval down'); // admitted, then failed as prepared
  });

  it(`a request that finds no slot within ${CHAT_ADMIT_WAIT_MS} ms gets 503 chat_busy`, async () => {
    jest.useFakeTimers();
    try {
      const chat = strictDouble<ChatService>({
        prepare: jest.fn(() => new Promise<PreparedAnswer>(() => undefined)),
      });
      const metrics = strictDouble<ChatMetrics>({
        track: jest.fn(() => ({ see: jest.fn(), end: jest.fn() })),
      });
      const sut = new ChatController(chat, metrics);
      const reply = () => ({ raw: stalledResponse() }) as unknown as FastifyReply;
      const body = { query: 'how do circles work?', userId: 'emp_1' } as ChatRequestDto;
      Array.from({ length: CHAT_MAX_INFLIGHT }, () => void sut.chatStream(body, reply()));
      const waiting = sut.chatStream(body, reply()).catch((error: unknown) => error);
      await jest.advanceTimersByTimeAsync(CHAT_ADMIT_WAIT_MS);
      expect(await waiting).toBeInstanceOf(ChatBusyError);
    } finally {
      jest.useRealTimers();
    }
  });
});
