import { DomainError, sleep } from '@app/common';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

import { TooManyRequestsError } from '../auth/auth.errors';
import { sendProblem, toErrorResponse } from '../common/error-body';
import { IngestSlot, slots } from './ingest-slot';
import { RecordCounter } from './record-counter';

/** What a busy caller is told to wait: about one embedding batch of a running upload. */
export const INGEST_RETRY_AFTER_S = 5;
/**
 * An `ingest_busy` refusal is held this long before it is sent. Answered at once, 25 clients
 * looping on it came back ~90 times a second (bench:abuse), each a new connection, and the
 * refusals cost the live path more than the work; a caller told to retry in 5 s loses nothing.
 */
export const INGEST_REFUSAL_HOLD_MS = 1000;

/**
 * A caller refused while another caller's upload held the slot is owed the next one for this
 * long (its Retry-After and the hold, twice), from its last refusal: one tenant uploading back
 * to back cannot keep every other tenant out, however long each upload runs.
 */
export const INGEST_OWED_MS = 2 * (INGEST_RETRY_AFTER_S * 1000 + INGEST_REFUSAL_HOLD_MS);
/**
 * A caller that let its owed turn lapse is owed none again for this long: asking and never
 * coming back would otherwise hold everyone else's uploads off for most of the time.
 */
export const INGEST_OWED_LAPSE_MS = 5 * INGEST_OWED_MS;

/** Bulk ingestion bodies may be this large; every other route keeps the server's 1 MB. */
export const INGEST_BODY_LIMIT = 32 * 1024 * 1024;

const INGEST_PREFIX = '/ingest/';
const NDJSON = 'application/x-ndjson';

export interface IngestAdmissionOptions {
  /** Ingestion requests processed at once (INGEST_MAX_INFLIGHT). */
  maxInFlight: number;
  /** Records per request (INGEST_MAX_RECORDS): counted while the body streams in. */
  maxRecords: number;
  /** The 401 for a caller the auth guard would refuse anyway; `undefined` lets it in. */
  reject(request: FastifyRequest): DomainError | undefined;
  /**
   * Counts a refused caller against its per-IP limit (the guard, which would have, never
   * runs); rejects with the 429 once that IP is over it.
   */
  countRefused(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Extra headers sent with a rejection (the `WWW-Authenticate` challenge). */
  challenge?: Record<string, string>;
  /** Who the caller is for fair turns (a bound key's locations, else its key); '' for all. */
  tenantOf?(request: FastifyRequest): string;
}

/**
 * The ingest routes' HTTP set-up: their body limit, set as each route is registered (so
 * this must run before the routes are), and {@link registerIngestAdmission}.
 */
export function registerIngestHooks(
  fastify: FastifyInstance,
  options: IngestAdmissionOptions,
): void {
  fastify.addHook('onRoute', (route) => {
    if (route.url.startsWith(INGEST_PREFIX)) {
      route.bodyLimit = INGEST_BODY_LIMIT;
    }
  });
  registerIngestAdmission(fastify, options);
  registerRecordCounting(fastify, options.maxRecords);
}

/**
 * Counts records as an ingestion body streams in ({@link RecordCounter}): past the cap the
 * request fails at once, the rest is never read, and the connection closes.
 */
function registerRecordCounting(fastify: FastifyInstance, maxRecords: number): void {
  fastify.addHook('preParsing', (request, reply, payload, done) => {
    if (!request.routeOptions.url?.startsWith(INGEST_PREFIX)) {
      return done(null, payload);
    }
    const ndjson = request.headers['content-type']?.toLowerCase().startsWith(NDJSON);
    const counter = new RecordCounter(ndjson ? 'ndjson' : 'json', maxRecords);
    counter.once('error', () => {
      payload.unpipe(counter);
      payload.pause();
      void reply.header('connection', 'close');
    });
    payload.once('error', (error) => counter.destroy(error));
    done(null, payload.pipe(counter));
  });
}

/**
 * Admission for `/ingest/*`, before the body is read: ingestion bodies may be 32 MB, so an
 * unauthenticated caller is refused before we buffer and parse one, and past
 * `maxInFlight` uploads a new one is refused at once (429 `ingest_busy`, `Retry-After`) rather
 * than queued (the refusal held {@link INGEST_REFUSAL_HOLD_MS}): bulk uploads embed on the same
 * workers `/context` needs, and a queue of big bodies would hold memory. The slot is held until the work ends: a request that never
 * reaches the handler (refused, too large, unparsable) frees it when its response closes;
 * once {@link IngestSlotInterceptor} has started the work, only the work's end (success or
 * failure) frees it, so a caller that uploads and hangs up cannot stack up ingestions.
 * Turns are fair between callers: one refused while another's upload ran is owed the next
 * slot ({@link INGEST_OWED_MS}), so a tenant uploading back to back never starves another.
 */
export function registerIngestAdmission(
  fastify: FastifyInstance,
  options: IngestAdmissionOptions,
): void {
  let inFlight = 0;
  const holders = new Map<string, number>();
  let owed: { tenant: string; until: number } | undefined;
  const lapsed = new Map<string, number>();
  fastify.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.url?.startsWith(INGEST_PREFIX)) {
      return;
    }
    const rejection = options.reject(request);
    if (rejection) {
      try {
        await options.countRefused(request, reply);
      } catch (error) {
        if (error instanceof DomainError) {
          return send(request, reply, error);
        }
        throw error;
      }
      return send(request, reply.headers(options.challenge ?? {}), rejection);
    }
    const tenant = options.tenantOf?.(request) ?? '';
    const now = Date.now();
    if (owed && owed.until <= now) {
      lapsed.set(owed.tenant, now + INGEST_OWED_LAPSE_MS);
      owed = undefined;
    }
    if (inFlight >= options.maxInFlight || (owed && owed.tenant !== tenant)) {
      if (owed?.tenant === tenant) {
        // Back while the slot is still taken (a long upload): waiting, not gone.
        owed.until = now + INGEST_OWED_MS;
      } else if (!owed && !holders.has(tenant) && !((lapsed.get(tenant) ?? 0) > now)) {
        lapsed.delete(tenant);
        owed = { tenant, until: now + INGEST_OWED_MS };
      }
      await sleep(INGEST_REFUSAL_HOLD_MS);
      return send(
        request,
        reply.header('retry-after', String(INGEST_RETRY_AFTER_S)),
        new TooManyRequestsError(
          'ingest_busy',
          `The uploads this server runs at once (INGEST_MAX_INFLIGHT) are running, or the next turn is another caller's; retry in ${INGEST_RETRY_AFTER_S} s.`,
          INGEST_RETRY_AFTER_S,
        ),
      );
    }
    if (owed?.tenant === tenant) {
      owed = undefined;
    }
    inFlight++;
    holders.set(tenant, (holders.get(tenant) ?? 0) + 1);
    const slot = new IngestSlot(() => {
      inFlight--;
      const left = (holders.get(tenant) ?? 1) - 1;
      if (left > 0) {
        holders.set(tenant, left);
      } else {
        holders.delete(tenant);
      }
    });
    slots.set(request.raw, slot);
    reply.raw.once('close', () => slot.closed());
  });
}

/** Answered before the body is read: the connection closes rather than wait for that body. */
function send(request: FastifyRequest, reply: FastifyReply, error: DomainError): FastifyReply {
  const [status, body] = toErrorResponse(error, String(request.id));
  return sendProblem(reply.header('connection', 'close'), status, body);
}
