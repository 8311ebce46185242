import { DomainError, InvalidInputError } from '@app/common';
import fastifyWebsocket from '@fastify/websocket';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

import { API_KEY_CHALLENGE, type ApiKeyService } from '../../auth/api-key.service';
import { InsufficientScopeError } from '../../auth/auth.errors';
import { principalOf, scopeOf, setPrincipal } from '../../auth/principal';
import { callerTracker, RateLimiter } from '../../auth/rate-limiter';
import { hasScope } from '../../auth/scopes';
import { scopedLocations } from '../../auth/tenant';
import { sendProblem, toErrorResponse } from '../../common/error-body';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { type CallIdentity, CallSessions } from '../../context/speculative/call-sessions';
import { CallStreamConnection } from './call-stream.connection';
import { CallerFinals } from './call-stream.guards';
import { CallStreamQueryDto, MAX_FRAME_BYTES, validationProblems } from './call-stream.protocol';
import { type StreamDeps, type StreamSocket, type StreamStats } from './call-stream.socket';
import { FinalsPacer } from './finals-pacer';

/** `GET /calls/{call_id}/stream` without a WebSocket upgrade (426). */
class UpgradeRequiredError extends DomainError {
  constructor() {
    super('upgrade_required', 'This route is a WebSocket: send the upgrade handshake.', 426);
  }
}

/**
 * An upgrade from a web page whose origin CORS_ORIGINS does not list: a browser lets any page
 * open a WebSocket to any host (no CORS), so without this a page could read a keyless
 * service's bundles through its visitor's network (cross-site WebSocket hijacking).
 */
class OriginForbiddenError extends DomainError {
  constructor() {
    super(
      'origin_forbidden',
      'WebSocket upgrades from this Origin are not allowed (CORS_ORIGINS).',
      403,
    );
  }
}

/** The stream's path; `:call_id` names the call. */
export const CALL_STREAM_PATH = '/calls/:call_id/stream';

/** What the route needs: auth as the HTTP routes have it, the call registry, the pipeline. */
export interface CallStreamRouteDeps extends StreamDeps {
  keys: ApiKeyService;
  sessions: CallSessions;
}

/**
 * The per-call streams of this process: one per call (a newer stream of the same caller's call
 * replaces the older, closed with `stream_replaced`: an agent reconnecting after a network
 * blip must not wait out the idle timeout).
 */
@Injectable()
export class CallStreams implements OnModuleDestroy {
  private readonly open = new Map<string, CallStreamConnection>();
  readonly stats: StreamStats = { pushed: 0, dropped: 0, confirmed: 0, fresh: 0 };
  private readonly callers = new CallerFinals();
  /** Per call, so a reconnecting stream does not refill its finals burst. */
  private readonly pacer = new FinalsPacer();
  private draining?: Promise<void>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    /** Upgrades are requests no Nest guard sees: counted here, as the guard counts the rest. */
    @Inject(RateLimiter) readonly limiter: Pick<RateLimiter, 'countUnguarded'>,
  ) {}

  get size(): number {
    return this.open.size;
  }

  /** No Origin (not a browser), or one CORS_ORIGINS lists (`*`: any). */
  allowsOrigin(origin: string | undefined): boolean {
    const allowed = this.config.security.corsOrigins;
    return origin === undefined || allowed.includes('*') || allowed.includes(origin);
  }

  attach(
    socket: StreamSocket,
    identity: CallIdentity,
    requestId: string,
    deps: StreamDeps,
  ): CallStreamConnection {
    const key = CallSessions.keyOf(identity);
    this.open.get(key)?.close('stream_replaced');
    const connection = new CallStreamConnection(
      socket,
      identity,
      requestId,
      deps,
      this.stats,
      this.callers,
      this.pacer,
    );
    this.open.set(key, connection);
    socket.on('close', () => {
      if (this.open.get(key) === connection) {
        this.open.delete(key);
      }
    });
    if (this.draining) {
      connection.drain();
    }
    return connection;
  }

  /**
   * Shutdown: every stream answers the finals it is building, then closes (1001); after
   * SHUTDOWN_DRAIN_MS whatever is still open is cut, so a client that neither reads nor answers
   * the close cannot hold the process (an upgraded socket is outside Node's own drain).
   * Settles when every stream has stopped.
   */
  closeAll(): Promise<void> {
    this.draining ??= new Promise<void>((resolve) => {
      const connections = [...this.open.values()];
      connections.forEach((connection) => connection.drain());
      // Sockets whose client has not answered the close by then are cut too (not after the
      // WebSocket layer's own 30 s): the process's exit waits for every socket.
      setTimeout(() => {
        [...this.open.values()].forEach((connection) => connection.terminate());
        resolve();
      }, this.config.server.shutdownDrainMs).unref();
      void Promise.all(connections.map((c) => c.finished)).then(() => resolve());
    });
    return this.draining;
  }

  /**
   * Nest destroys modules before it closes the HTTP server: the streams drain here, while the
   * pipeline their finals need (call registry, embedder, database) is still up.
   */
  onModuleDestroy(): Promise<void> {
    return this.closeAll();
  }
}

/**
 * The upgrade is authorised as `POST /context` is: an API key with `context:read`, its
 * location binding holding the named location, and the call opened in the registry (429
 * `too_many_calls` past its bounds). Refusals are HTTP problems before any upgrade.
 */
async function authorise(
  request: FastifyRequest<{ Params: { call_id: string }; Querystring: Record<string, unknown> }>,
  reply: FastifyReply,
  streams: CallStreams,
  deps: CallStreamRouteDeps,
): Promise<CallIdentity | undefined> {
  try {
    const identity = deps.keys.identify(request);
    if (identity.kind === 'key') {
      setPrincipal(request, identity.principal);
    }
    // Every handshake counts against its caller, a bad key's against its IP (key guessing).
    await streams.limiter.countUnguarded(request, reply);
    if (!streams.allowsOrigin(request.headers.origin)) {
      throw new OriginForbiddenError();
    }
    const rejection = deps.keys.rejection(identity);
    if (rejection) {
      void reply.header('www-authenticate', API_KEY_CHALLENGE);
      throw rejection;
    }
    if (identity.kind === 'key' && !hasScope(identity.principal, 'context:read')) {
      throw new InsufficientScopeError('context:read');
    }
    const query = plainToInstance(CallStreamQueryDto, {
      ...request.query,
      call_id: request.params.call_id,
    });
    const problems = validationProblems(query);
    if (problems) {
      throw new InvalidInputError('validation_failed', problems);
    }
    const scope = scopeOf(principalOf(request));
    scopedLocations(scope, query.location_uid); // 403 location_forbidden outside the binding
    const call: CallIdentity = {
      caller: callerTracker(request),
      callId: query.call_id as string,
      contactUid: query.contact_uid,
      locationUid: query.location_uid,
      scope,
    };
    deps.sessions.open(call); // 429 too_many_calls past CALLS_MAX(_PER_CALLER)
    return call;
  } catch (error) {
    const [status, body] = toErrorResponse(error, request.id);
    await sendProblem(reply, status, body);
    return undefined;
  }
}

/**
 * `GET /calls/{call_id}/stream` (WebSocket), registered on Fastify itself: Nest's router has
 * no upgrade. Frames over {@link MAX_FRAME_BYTES} close the stream with 1009.
 */
export function registerCallStream(
  fastify: FastifyInstance,
  streams: CallStreams,
  deps: CallStreamRouteDeps,
): void {
  const identities = new WeakMap<FastifyRequest, CallIdentity>();
  // An upgrade handshake on any other path is routed as a plain request over the raw socket,
  // which Node no longer tracks: no timeout and no shutdown reaches it. Answered, it is closed.
  fastify.addHook('onResponse', (request, _reply, done) => {
    // Node sets `upgrade` on a request it handed to the 'upgrade' listeners (untyped).
    if ((request.raw as { upgrade?: boolean }).upgrade === true) {
      request.raw.socket.destroy();
    }
    done();
  });
  void fastify.register(async (instance) => {
    await instance.register(fastifyWebsocket, {
      // Pongs are the stream's to send: a ping flood costs frames of its budget.
      options: { maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false, autoPong: false },
      // A backstop: the drain already ran in onModuleDestroy when Nest closes the app.
      preClose: (done) => {
        void streams.closeAll();
        done();
      },
    });
    instance.route<{ Params: { call_id: string }; Querystring: Record<string, unknown> }>({
      method: 'GET',
      url: CALL_STREAM_PATH,
      preValidation: async (request, reply) => {
        const identity = await authorise(request, reply, streams, deps);
        if (identity) {
          identities.set(request, identity);
        }
      },
      // A plain GET (no upgrade), once authorised: RFC 9110's 426 naming the protocol.
      handler: async (request, reply) => {
        const [status, body] = toErrorResponse(new UpgradeRequiredError(), request.id);
        await sendProblem(reply.header('upgrade', 'websocket'), status, body);
      },
      wsHandler: (ws, request) => {
        // `ws` ships no types of its own: the part used is StreamSocket.
        const socket = ws as unknown as StreamSocket;
        const identity = identities.get(request);
        if (!identity) {
          socket.close(1011);
          return;
        }
        streams.attach(socket, identity, request.id, deps);
      },
    });
  });
}
