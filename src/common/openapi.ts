import { type INestApplication } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  DocumentBuilder,
  type OpenAPIObject,
  type OperationObject,
  type ResponsesObject,
  SwaggerModule,
} from '@nestjs/swagger';

import { AUTH_POLICY, type AuthPolicy } from '../auth/public.decorator';
import { REQUIRED_SCOPE } from '../auth/scopes';
import { type ApiScope } from '../config/api-key-entries';
import { type AppConfig } from '../config/app-config';
import { ErrorBodyDto } from './error-body';
import { listRoutes, toOpenApiPath } from './routes';
import { serveSwaggerUi } from './swagger-ui';

/** Swagger UI; the document itself is at {@link DOCS_JSON_PATH}. */
export const DOCS_PATH = '/docs';
export const DOCS_JSON_PATH = '/docs/json';

const ERROR_REF = { $ref: '#/components/schemas/ErrorBody' };
const error = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ERROR_REF } },
});
const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
};

const DESCRIPTION = `Real-time retrieval for conversational agents: the Podium context bridge and R42 knowledge chat.

**Authentication.** Internal endpoints take an API key as \`Authorization: Bearer <key>\` or \`x-api-key: <key>\`
(when the service is configured with keys; see API_KEYS). A key may be bound to \`location_uid\`s: it then reads,
searches and ingests only those locations' contacts (403 \`location_forbidden\` for a request naming another location;
a contact the CRM places only elsewhere reads as unknown). \`POST /chat\` is guarded by
CHAT_AUTH instead (a JWT whose \`sub\` is the body's \`userId\` when CHAT_AUTH=jwt).

**Errors** are RFC 9457 problems (\`application/problem+json\`, schema \`ErrorBody\`): \`type\` is the stable code as
\`urn:context-bridge:problem:<code>\`, also in \`error\`; 429 and 503 carry \`Retry-After\`; every response carries \`x-request-id\`.`;

/**
 * The OpenAPI 3 document, from the controllers and DTO decorators, then completed from the
 * auth metadata the guard itself reads: public routes get `security: []`, protected ones
 * the 401/403 answers, and every route the error codes it can answer with.
 */
export function buildOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const base = new DocumentBuilder()
    .setTitle('Context Bridge')
    .setDescription(DESCRIPTION)
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The API key' }, 'bearer')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key' }, 'api_key')
    .addSecurityRequirements('bearer')
    .addSecurityRequirements('api_key')
    .build();
  const document = SwaggerModule.createDocument(app, base, {
    extraModels: [ErrorBodyDto],
    operationIdFactory: (controller, method) =>
      `${controller.replace(/Controller$/, '')}_${method}`,
  });
  const reflector = app.get(Reflector);
  for (const route of listRoutes(app)) {
    const operation =
      document.paths[toOpenApiPath(route.path)]?.[route.method.toLowerCase() as 'get'];
    if (!operation) {
      continue; // reported by the docs test: every route must be documented
    }
    const policy = reflector.getAllAndOverride<AuthPolicy | undefined>(AUTH_POLICY, [
      route.handler,
      route.controller,
    ]);
    const needsKey =
      policy === undefined || (policy.access === 'metrics' && config.security.metricsRequireKey);
    if (!needsKey) {
      operation.security = [];
    }
    const scope =
      needsKey && policy?.access !== 'metrics'
        ? (reflector.getAllAndOverride<ApiScope | undefined>(REQUIRED_SCOPE, [
            route.handler,
            route.controller,
          ]) ?? 'admin')
        : undefined;
    if (scope) {
      // OpenAPI's own scopes belong to OAuth2 flows; an extension keeps the key scope readable.
      (operation as OperationObject & { 'x-required-scope'?: string })['x-required-scope'] = scope;
    }
    addErrorResponses(operation, {
      needsKey,
      scope,
      rateLimited: policy?.rateLimit !== false,
      hasBody: route.method === 'POST',
      ingest: route.path.startsWith('/ingest/'),
    });
  }
  return document;
}

function addErrorResponses(
  operation: OperationObject,
  route: {
    needsKey: boolean;
    scope?: ApiScope;
    rateLimited: boolean;
    hasBody: boolean;
    ingest: boolean;
  },
): void {
  const responses: ResponsesObject = operation.responses ?? {};
  const add = (status: string, response: ResponsesObject[string]) => {
    responses[status] ??= response;
  };
  if (route.hasBody) {
    add('400', error('`validation_failed`, `invalid_json` or a route-specific code'));
  }
  if (route.needsKey) {
    add('401', error('`missing_api_key` or `invalid_api_key`'));
  }
  if (route.scope) {
    add(
      '403',
      error(
        `\`insufficient_scope\`: the key lacks \`${route.scope}\`; or \`location_forbidden\`: ` +
          'the key is bound to other locations',
      ),
    );
  }
  if (route.hasBody) {
    add('413', error('`payload_too_large`'));
  }
  if (route.rateLimited || route.ingest) {
    add('429', {
      ...error(route.ingest ? '`rate_limited` or `ingest_busy`' : '`rate_limited`'),
      headers: RETRY_AFTER,
    });
  }
  add('500', error('`internal_error` (quote the request_id)'));
  operation.responses = responses;
}

/**
 * Serves the document at `/docs/json` (built on first request: the routes are scanned then,
 * and SwaggerModule keeps the result) and Swagger UI at `/docs`. Neither is a controller
 * route, so neither is behind the API-key guard.
 */
export function setupOpenApi(app: NestFastifyApplication, config: AppConfig): void {
  SwaggerModule.setup(DOCS_PATH, app, () => buildOpenApiDocument(app, config), {
    ui: false,
    raw: ['json'],
    jsonDocumentUrl: DOCS_JSON_PATH,
  });
  serveSwaggerUi(app.getHttpAdapter().getInstance(), {
    base: DOCS_PATH,
    jsonUrl: DOCS_JSON_PATH,
    title: 'Context Bridge API',
  });
}
