import { InvalidInputError } from '@app/common';
import { ShutdownSignal } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';

import { AppModule } from './app.module';
import { stampArrival } from './common/arrival';
import { registerBodyDeadline } from './common/body-deadline';
import { registerBodyParsers } from './common/body-parsers';
import { clientErrors, frameworkErrors, MAX_PARAM_LENGTH } from './common/framework-errors';
import { exceedsDepth, MAX_JSON_DEPTH } from './common/json-depth';
import { setupOpenApi } from './common/openapi';
import { registerPipelineCap } from './common/pipeline-cap';
import { genRequestId } from './common/request-id';
import { APP_CONFIG, type AppConfig } from './config/app-config';
import { traceIds } from './tracing/trace-ids';

/** Default JSON body limit; the ingest module raises it for its routes. */
const BODY_LIMIT = 1024 * 1024;

/**
 * Socket bounds (Fastify's defaults are none). The body deadline itself is
 * `registerBodyDeadline` (HTTP_BODY_TIMEOUT_MS): Node checks `requestTimeout` only every 30 s,
 * so it is the backstop for whole requests, headers included.
 */
export const SERVER_TIMEOUTS = {
  /** A socket silent both ways this long is closed (longer than any handler's work). */
  connectionTimeout: 10 * 60_000,
  /** The whole request (headers and body) must arrive within this. */
  requestTimeout: 120_000,
  /** Idle keep-alive sockets close after this; above common load balancers' 60 s. */
  keepAliveTimeout: 72_000,
} as const;

/** `config` sets which proxies may name the client IP (per-IP rate limits read it). */
export function createFastifyAdapter(config?: AppConfig): FastifyAdapter {
  return new FastifyAdapter({
    genReqId: genRequestId,
    bodyLimit: BODY_LIMIT,
    requestIdHeader: false,
    return503OnClosing: true,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
    clientErrorHandler: clientErrors,
    trustProxy: config?.server.trustProxy ?? false,
    ...SERVER_TIMEOUTS,
  });
}

export const APP_OPTIONS = {
  bufferLogs: true,
  // We register the JSON parser ourselves (configureApp) to give parse errors a stable code.
  bodyParser: false,
};

/**
 * Builds the Fastify-backed Nest app exactly as production runs it; e2e tests call this
 * too, so they exercise the same pipes, filters, parsers and hooks.
 */
export async function createApp(config: AppConfig): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config),
    createFastifyAdapter(config),
    APP_OPTIONS,
  );
  return configureApp(app);
}

/**
 * Logger, shutdown hooks, body parsers, request ids, CORS and the API docs: the app-wide HTTP
 * set-up. What belongs to one module (ingest's body limit and admission, HTTP metrics) is
 * set up by that module.
 */
export function configureApp(app: NestFastifyApplication): NestFastifyApplication {
  app.useLogger(app.get(Logger));
  const config = app.get<AppConfig>(APP_CONFIG);
  // With API_KEYS_FILE, SIGHUP re-reads it (ApiKeyService) instead of shutting down.
  app.enableShutdownHooks(
    Object.values(ShutdownSignal).filter(
      (signal) => !config.security.apiKeysFile || signal !== ShutdownSignal.SIGHUP,
    ),
  );

  const fastify = app.getHttpAdapter().getInstance();
  // The first hook of every request: deadlines (/context) count from here, not from the
  // handler, so parsing, guards and rate limiting are inside them.
  fastify.addHook('onRequest', (request, _reply, done) => {
    stampArrival(request);
    done();
  });
  registerPipelineCap(fastify);
  registerBodyDeadline(fastify, config.server.bodyTimeoutMs);
  registerBodyParsers(fastify);
  // Graceful shutdown: requests in flight finish, then their keep-alive sockets close, so
  // the drain does not wait out Fastify's 72 s keep-alive timeout.
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    // Fastify's close waits for every connection, and one whose headers are still trickling in
    // is not idle: Node's requestTimeout (120 s, checked every 30 s) would hold the process
    // past any grace period. After the drain window every socket still open is closed.
    setTimeout(() => fastify.server.closeAllConnections(), config.server.shutdownDrainMs).unref();
    done();
  });
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) {
      void reply.header('connection', 'close');
    }
    done(null, payload);
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  if (config.telemetry.enabled) {
    // The trace this request belongs to (the caller's, when it sent a `traceparent`).
    fastify.addHook('onRequest', (_request, reply, done) => {
      const { trace_id } = traceIds();
      if (trace_id) {
        void reply.header('x-trace-id', trace_id);
      }
      done();
    });
  }
  // Absurdly nested JSON parses fine but overflows class-transformer's recursion (a 500).
  fastify.addHook('preValidation', (request, _reply, done) => {
    done(
      typeof request.body === 'object' && exceedsDepth(request.body)
        ? new InvalidInputError('invalid_json', `Body nests deeper than ${MAX_JSON_DEPTH} levels.`)
        : undefined,
    );
  });
  if (config.security.corsOrigins.length > 0) {
    app.enableCors({
      origin: config.security.corsOrigins.includes('*') ? true : config.security.corsOrigins,
      methods: ['GET', 'POST', 'OPTIONS'],
      allowedHeaders: ['content-type', 'authorization', 'x-api-key', 'x-request-id'],
      exposedHeaders: ['x-request-id', 'x-trace-id', 'retry-after'],
      maxAge: 600,
    });
  }
  setupOpenApi(app, config);
  return app;
}
