import { inBackground } from '@app/common';
import { Body, Controller, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';

import { ChatIdentityGuard } from '../auth/chat-identity.guard';
import { Public } from '../auth/public.decorator';
import { ApiSseResponse } from '../common/api-docs';
import { AdmissionGate } from '../context/admission-gate';
import { ChatRequestDto } from './chat.dto';
import { ChatService } from './chat.service';
import {
  CHAT_ADMIT_WAIT_MS,
  CHAT_MAX_INFLIGHT,
  CHAT_MAX_WAITING,
  ChatBusyError,
  writeFrame,
} from './chat-bounds';
import { CHAT_EVENT_SCHEMAS, toSseFrame } from './chat-events';
import { ChatMetrics } from './chat-metrics';

/** Headers that keep proxies (nginx, CDNs) from buffering or compressing the stream. */
const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  // One stream per connection: the socket closes with the stream, so a stream running at
  // shutdown does not leave an idle keep-alive socket for the drain to wait out.
  connection: 'close',
  'x-accel-buffering': 'no',
};

/**
 * `POST /chat`: R42's streamed answer. Nest's `@Sse` is GET-only, so the SSE is written by
 * hand: errors found before the stream (bad query, unknown user, retrieval down) are plain
 * JSON through the global filter; after that the reply is hijacked and written frame by frame.
 */
@ApiTags('chat')
@Public() // no API key: the employee app's route, guarded by CHAT_AUTH instead
@UseGuards(ChatIdentityGuard)
@Controller('chat')
export class ChatController {
  /** Streams in flight (CHAT_MAX_INFLIGHT); a slot is held until the stream has ended. */
  private readonly gate = new AdmissionGate(CHAT_MAX_INFLIGHT, CHAT_MAX_WAITING);

  constructor(
    private readonly chat: ChatService,
    private readonly metrics: ChatMetrics,
  ) {}

  @Post()
  @HttpCode(200) // a no-op with @Res(), but keeps the docs from claiming 201
  @ApiOperation({ summary: 'R42 knowledge chat: a grounded, cited answer as server-sent events' })
  @ApiSseResponse(
    'One `data: <json>` frame per event; the stream ends with `done`.',
    CHAT_EVENT_SCHEMAS,
  )
  async chatStream(@Body() body: ChatRequestDto, @Res() reply: FastifyReply): Promise<void> {
    const release = await this.gate.acquire(CHAT_ADMIT_WAIT_MS);
    if (!release) {
      throw new ChatBusyError();
    }
    try {
      // The employee can wait a little: live /context statements go ahead of its searches.
      await inBackground(() => this.stream(body, reply));
    } finally {
      release();
    }
  }

  private async stream(body: ChatRequestDto, reply: FastifyReply): Promise<void> {
    const tracker = this.metrics.track(performance.now());
    const disconnected = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableFinished) {
        disconnected.abort(); // the employee left: stop paying for tokens
      }
    };
    // The response's 'close' (not the request's, which fires once the body is read) tells
    // a finished reply from a dropped connection.
    reply.raw.on('close', onClose);
    if (reply.raw.destroyed) {
      disconnected.abort(); // it left while guards ran: 'close' has already fired
    }
    const prepared = await this.chat.prepare(body, disconnected.signal);

    reply.hijack();
    // Headers already set by hooks (request id, CORS) must survive the hijack.
    reply.raw.writeHead(200, { ...(reply.getHeaders() as Record<string, string>), ...SSE_HEADERS });
    reply.raw.flushHeaders();
    try {
      for await (const event of this.chat.answer(prepared, disconnected.signal)) {
        if (disconnected.signal.aborted) {
          break;
        }
        tracker.see(event.type);
        await writeFrame(reply.raw, toSseFrame(event));
      }
    } finally {
      tracker.end(disconnected.signal.aborted);
      reply.raw.off('close', onClose);
      reply.raw.end();
    }
  }
}
