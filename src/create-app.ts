import { InvalidInputError } from '@app/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';

import { AppModule } from './app.module';
import { genRequestId } from './common/request-id';
import { type AppConfig } from './config/app-config';
import { MetricsService } from './metrics/metrics.service';

/** Default JSON body limit; ingestion routes get a larger one. */
const BODY_LIMIT = 1024 * 1024;
export const INGEST_BODY_LIMIT = 32 * 1024 * 1024;

export function createFastifyAdapter(): FastifyAdapter {
  return new FastifyAdapter({
    genReqId: genRequestId,
    bodyLimit: BODY_LIMIT,
    requestIdHeader: false,
    return503OnClosing: true,
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
    createFastifyAdapter(),
    APP_OPTIONS,
  );
  return configureApp(app);
}

/** Logger, shutdown hooks, body parsers and response hooks: everything outside the modules. */
export function configureApp(app: NestFastifyApplication): NestFastifyApplication {
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();

  const fastify = app.getHttpAdapter().getInstance();
  // Routes are registered at init, after this hook: only bulk ingestion gets the big limit.
  fastify.addHook('onRoute', (route) => {
    if (route.url.startsWith('/ingest/')) {
      route.bodyLimit = INGEST_BODY_LIMIT;
    }
  });
  // Fastify's JSON parser (with its prototype-poisoning guard), but a parse failure becomes
  // our stable `invalid_json` code instead of a generic 400.
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    void parseJson(request, body as string, (error, value) =>
      error
        ? done(new InvalidInputError('invalid_json', `Body is not valid JSON: ${error.message}`))
        : done(null, value),
    );
  });
  fastify.addContentTypeParser(
    'application/x-ndjson',
    // No bodyLimit here: a parser-level limit would apply to every route; onRoute raises
    // it for /ingest/* only.
    { parseAs: 'string' },
    (_req, body, done) => done(null, body),
  );
  // Graceful shutdown: requests in flight finish, then their keep-alive sockets close, so
  // the drain does not wait out Fastify's 72 s keep-alive timeout.
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) {
      void reply.header('connection', 'close');
    }
    done(null, payload);
  });
  const metrics = app.get(MetricsService);
  fastify.addHook('onResponse', (request, reply, done) => {
    // The route pattern, not the URL: unmatched paths all count as one label value.
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpDuration.observe(
      { route, method: request.method, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  return app;
}
