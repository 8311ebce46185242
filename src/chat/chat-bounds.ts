import { type ServerResponse } from 'node:http';

import { DomainError } from '@app/common';

/**
 * Chat streams open at once. Each holds an LLM stream and a retrieval; past this a new one
 * is refused at once (503 `chat_busy`) rather than queued behind streams that last seconds.
 */
export const CHAT_MAX_INFLIGHT = 16;
/**
 * Requests that may wait for a chat slot, and how long. A client refused at once comes
 * straight back: a flood looping on instant 503s cost the live `/context` caller more than
 * the streams did (issue 37's bench:abuse). Waiting, it asks no faster than answers finish.
 */
export const CHAT_MAX_WAITING = 16;
export const CHAT_ADMIT_WAIT_MS = 2000;

/** A client that reads nothing for this long while a frame waits to be sent is dropped. */
export const SSE_DRAIN_TIMEOUT_MS = 10_000;

const RETRY_AFTER_S = 2;

/** Every chat slot is taken (503). */
export class ChatBusyError extends DomainError {
  constructor() {
    super(
      'chat_busy',
      `${CHAT_MAX_INFLIGHT} chat answers already streaming and ${CHAT_MAX_WAITING} waiting; retry shortly.`,
      503,
      {
        retry_after_s: RETRY_AFTER_S,
      },
    );
  }
}

/**
 * Writes one SSE frame, waiting for the socket to drain when the client reads slowly, but
 * at most `drainTimeoutMs`: a client that stops reading would otherwise hold its stream, its
 * chat slot and the LLM call behind it for as long as its socket lives. Past the wait the
 * socket is destroyed, which ends the stream as a disconnect.
 */
export async function writeFrame(
  raw: ServerResponse,
  frame: string,
  drainTimeoutMs = SSE_DRAIN_TIMEOUT_MS,
): Promise<void> {
  // A destroyed socket never drains: waiting for it would leave the handler pending forever.
  if (raw.destroyed || raw.write(frame)) {
    return;
  }
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      raw.destroy(); // emits 'close', which settles below
    }, drainTimeoutMs);
    timer.unref();
    const done = () => {
      clearTimeout(timer);
      raw.off('drain', done);
      raw.off('close', done);
      resolve();
    };
    raw.on('drain', done);
    raw.on('close', done);
  });
}
