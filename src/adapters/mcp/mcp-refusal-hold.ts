import { sleep } from '@app/common';
import {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RouteOptions,
} from 'fastify';

import { sendProblem, toErrorResponse } from '../../common/error-body';
import { type CallerHolds } from './caller-holds';
import { McpCallerHeldError } from './mcp-bounds';

const MCP_PATH = '/mcp';

/**
 * A held caller's refusal is sent after this, or when its hold ends if sooner: refusals sent
 * at once came straight back from a looping client (33,000 in 30 s from four in bench:abuse),
 * and a caller told to retry later loses nothing.
 */
export const MCP_HELD_ANSWER_DELAY_MS = 1000;
/** Held refusals waiting out that delay at once (each is an open socket); past it, sent at once. */
export const MCP_HELD_MAX_DELAYED = 256;

/**
 * Statuses of a `/mcp` answer that put its caller on hold: the caller's fault, and each cost
 * us a body read or parsed: 400 (a batch over MCP_MAX_BATCH, malformed JSON or JSON-RPC),
 * 406 (no JSON in Accept), 408 (a body too slow), 413 (too large), 415 (not JSON) and 429
 * (over its rate limit, which the guard tells only after the body is parsed). Not 401/403:
 * key guessing is the rate limiter's, and a hold by IP there would also hold keyless
 * neighbours for a colleague's typo.
 */
const HOLDING = new Set([400, 406, 408, 413, 415, 429]);

export interface McpRefusalHoldOptions {
  holds: CallerHolds;
  /** Who the request counts as, as the rate limiter names it, known before any guard runs. */
  callerOf(request: FastifyRequest): string;
  /**
   * Counts a refusal the guard never saw (the body failed to arrive or parse, so no handler
   * ran) against the caller's per-IP rate limit; rejects once it is over.
   */
  countRefused(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/**
 * Makes refusing a misbehaving `/mcp` caller cheap. Once an answer in {@link HOLDING} goes to
 * a caller, its next `POST /mcp` requests for `holds.holdMs` are refused in `onRequest`, before
 * the body is read, parsed or authorised: 429 `mcp_caller_held` with `Retry-After`, sent after
 * {@link MCP_HELD_ANSWER_DELAY_MS}, and the connection closes (the body is never read). A held
 * refusal neither renews the hold nor counts against the rate limit. Other callers, and this
 * caller's other routes, are untouched. Hooks on the route only (set as it is registered, so
 * this must run before the routes are): other routes pay nothing.
 */
export function registerMcpRefusalHold(
  fastify: FastifyInstance,
  options: McpRefusalHoldOptions,
): void {
  /** Refused by the hold (never counted, never renewing it). */
  const held = new WeakSet<object>();
  /** Reached the handler, where the guard counts it against the rate limit. */
  const guarded = new WeakSet<object>();
  let delayed = 0;

  async function refuseHeld(request: FastifyRequest, reply: FastifyReply) {
    const caller = options.callerOf(request);
    const left = options.holds.remaining(caller);
    if (left === 0) {
      return;
    }
    held.add(request);
    if (delayed < MCP_HELD_MAX_DELAYED) {
      delayed++;
      try {
        await sleep(Math.min(left, MCP_HELD_ANSWER_DELAY_MS));
      } finally {
        delayed--;
      }
    }
    const retryAfterS = Math.max(1, Math.ceil(options.holds.remaining(caller) / 1000));
    const [status, body] = toErrorResponse(new McpCallerHeldError(retryAfterS), String(request.id));
    return sendProblem(reply.header('connection', 'close'), status, body);
  }

  function handlerReached(request: FastifyRequest, _reply: FastifyReply, done: () => void) {
    guarded.add(request);
    done();
  }

  function onAnswer(request: FastifyRequest, reply: FastifyReply, done: () => void) {
    const status = reply.statusCode;
    if (held.has(request) || !HOLDING.has(status)) {
      return done();
    }
    options.holds.hold(options.callerOf(request));
    if (!guarded.has(request)) {
      // Refused before the handler, whose guard counts requests: count it here. Over the
      // limit, the next request's guard (or this hold) refuses it; this answer stands.
      void options.countRefused(request, reply).catch(() => undefined);
    }
    done();
  }

  fastify.addHook('onRoute', (route) => {
    if (route.url !== MCP_PATH || !methods(route).includes('POST')) {
      return;
    }
    route.onRequest = [...hooks(route.onRequest), refuseHeld];
    route.preHandler = [...hooks(route.preHandler), handlerReached];
    route.onResponse = [...hooks(route.onResponse), onAnswer];
  });
}

const methods = (route: RouteOptions) =>
  Array.isArray(route.method) ? route.method : [route.method];

/** A route's hooks of one kind as a list (Fastify takes one function or several). */
function hooks<T>(current: T | T[] | undefined): T[] {
  if (current === undefined) {
    return [];
  }
  return Array.isArray(current) ? current : [current];
}
