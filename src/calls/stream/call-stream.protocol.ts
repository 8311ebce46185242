import { PickType } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min, validateSync } from 'class-validator';

import { ContextRequestDto } from '../../context/context.dto';

/** Largest frame a client may send (a transcript is at most 8,000 characters). */
export const MAX_FRAME_BYTES = 40 * 1024;
/** Frames (pings included) one stream may send per second: a speech engine sends 4 to 10. */
export const MAX_FRAMES_PER_SECOND = 50;
/** Finals of one stream being answered at once: an agent has one per turn, seconds apart. */
export const MAX_FINALS_IN_FLIGHT = 2;
/**
 * Finals one call may have built per second, sustained, after a burst of {@link FINALS_BURST}:
 * speech ends a turn at most about once a second, and every final is a whole `/context` build.
 * A stream sending finals back to back (bench:abuse's flood: one every 22 ms) kept both cores
 * building for one caller; over the rate, a final is answered `stream_finals_rate_limited` and
 * its words are kept for the next built one (KeptWords).
 */
export const MAX_FINALS_PER_SECOND = 1;
/** Finals a call may have built at once before {@link MAX_FINALS_PER_SECOND} applies. */
export const FINALS_BURST = 3;
/** A call that ran over its finals rate counts as flooding this long after (FinalsPacer). */
export const FLOOD_MEMORY_MS = 10_000;
/**
 * Builds a second shared by all of one caller's flooding calls: 20 streams each at the
 * per-call rate still had ~20 builds a second between them, and the live calls' embed wait
 * under bench:abuse's flood went from 27 to 64 ms at p95.
 */
export const FLOODING_CALLER_BUILDS_PER_SECOND = 1;
/** Calls (and callers) whose finals rate is tracked at once; past it the idle, then oldest, go. */
export const MAX_PACED_ENTRIES = 10_000;
/**
 * Words of unbuilt finals a stream keeps for its next build (about two minutes of speech; past
 * it the oldest go): a paced voice agent keeps a turn or two, while a flood's words would
 * otherwise lengthen every build it gets and fill the call's memory, which joins history.
 */
export const MAX_KEPT_CHARS = 2000;
/** A final's transcript, kept words in front, stays within `/context`'s own bound. */
export const MAX_TRANSCRIPT_CHARS = 8000;
/**
 * Finals of all one caller's (API key's, or IP's) streams built at once (the next waits its
 * turn): one caller's streams cannot take the cores every tenant's calls share (on 2 cores, 4
 * at once still put the live calls' p50 at 5x under a 50-stream flood; docs/benchmarks.md). At
 * ~20 ms a build that is still ~100 finals a second per key.
 */
export const MAX_CALLER_FINALS_IN_FLIGHT = 2;
/**
 * After the server's close frame, the client has this long to answer it before the socket is
 * destroyed: ws would wait 30 s, and a hostile client that never answers held its socket (and
 * a flood's many) that long.
 */
export const CLOSE_GRACE_MS = 1000;
/** A stream with no frame from the client this long is closed (the call went away). */
export const STREAM_IDLE_MS = 60_000;
/** The server pings this often; a peer that has not answered the last ping is cut. */
export const STREAM_PING_MS = 20_000;
/**
 * Bytes the socket may hold unsent. A speculative update finding more is dropped (a newer one
 * supersedes it); a final's answer finding more closes the stream: the client does not read.
 */
export const MAX_BUFFERED_BYTES = 256 * 1024;

/**
 * Close codes (RFC 6455 private range 4000-4999 mirror the HTTP status they stand for).
 * 1009 (a frame over {@link MAX_FRAME_BYTES}) is sent by the WebSocket layer itself.
 */
export const STREAM_CLOSE = {
  /** A frame that is not a JSON object of text (binary, bad JSON, nesting). */
  bad_frame: 4400,
  /** No frame for {@link STREAM_IDLE_MS}. */
  stream_idle: 4408,
  /** No answer to the last ping after {@link STREAM_PING_MS} (the peer is gone or not reading). */
  pong_timeout: 4408,
  /** A newer stream for the same call took over. */
  stream_replaced: 4409,
  /** Over {@link MAX_FRAMES_PER_SECOND}. */
  stream_rate_limited: 4429,
  /** The client does not read what it is sent ({@link MAX_BUFFERED_BYTES} unsent). */
  slow_consumer: 4413,
  /** The call ended (`end` event or POST /calls/end). */
  call_ended: 1000,
  /** The server is shutting down (after the finals in flight were answered). */
  shutting_down: 1001,
} as const;

export type StreamCloseReason = keyof typeof STREAM_CLOSE;

/**
 * One client event: an interim or final transcript chunk of the stream's call, with the same
 * bounds as `POST /context`; or `end`. `seq` is echoed on the answer to a final.
 */
export class CallStreamEventDto extends PickType(ContextRequestDto, [
  'transcript',
  'timeout_ms',
  'pool_k',
  'final_k',
  'max_tokens',
] as const) {
  @IsIn(['interim', 'final'])
  type!: 'interim' | 'final';

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(2 ** 31 - 1)
  seq?: number;
}

/** The stream's call, from the upgrade's query string (the path names the call id). */
export class CallStreamQueryDto extends PickType(ContextRequestDto, [
  'contact_uid',
  'location_uid',
  'call_id',
] as const) {}

/** What a frame turned out to be. */
export type ParsedFrame =
  | { kind: 'event'; event: CallStreamEventDto }
  | { kind: 'end' }
  | { kind: 'invalid'; message: string; seq?: number }
  | { kind: 'bad_frame' };

const VALIDATION = { whitelist: true, forbidNonWhitelisted: true } as const;

/** Field problems as the HTTP routes list them (`validation_failed`); no value is echoed. */
export function validationProblems(target: object): string | undefined {
  const errors = validateSync(target, VALIDATION);
  return errors.length === 0
    ? undefined
    : errors.flatMap((e) => Object.values(e.constraints ?? { [e.property]: 'invalid' })).join('; ');
}

/** Parses and validates one text frame. Anything but a flat JSON object is a bad frame. */
export function parseFrame(data: string): ParsedFrame {
  let raw: unknown;
  try {
    raw = JSON.parse(data);
  } catch {
    return { kind: 'bad_frame' };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { kind: 'bad_frame' };
  }
  const fields = raw as Record<string, unknown>;
  if (fields.type === 'end' && Object.keys(fields).length === 1) {
    return { kind: 'end' };
  }
  // Nested values are never valid here: refused before class-transformer walks them.
  if (Object.values(fields).some((v) => typeof v === 'object' && v !== null)) {
    return { kind: 'invalid', message: 'event fields must be strings or numbers' };
  }
  const event = plainToInstance(CallStreamEventDto, fields);
  const problems = validationProblems(event);
  const seq = Number.isSafeInteger(fields.seq) ? (fields.seq as number) : undefined;
  return problems ? { kind: 'invalid', message: problems, seq } : { kind: 'event', event };
}
