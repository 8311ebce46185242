import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { type FastifyInstance } from 'fastify';

/** The Swagger UI files we serve, and their content types. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

/** swagger-ui-dist as @nestjs/swagger resolves it (a dependency of it, not of ours). */
function assetsDir(): string {
  const swagger = require.resolve('@nestjs/swagger');
  return dirname(require.resolve('swagger-ui-dist/package.json', { paths: [swagger] }));
}

const page = (title: string, base: string) => `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<link rel="stylesheet" href="${base}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${base}/swagger-ui-bundle.js"></script>
<script src="${base}/swagger-ui-init.js"></script>
</body>
</html>
`;

/**
 * Swagger UI at `base` for the document at `jsonUrl`, from the swagger-ui-dist files.
 * Served by hand rather than by SwaggerModule's UI, which needs @fastify/static: one of its
 * dependencies is ESM-only, which jest cannot load, and the e2e tests must boot the same
 * app as production. Assets are read once, on first request.
 */
export function serveSwaggerUi(
  fastify: FastifyInstance,
  options: { base: string; jsonUrl: string; title: string },
): void {
  const cache = new Map<string, Buffer>();
  const html = page(options.title, options.base);
  const init = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(options.jsonUrl)}, dom_id: '#swagger-ui', deepLinking: true });\n`;
  fastify.get(options.base, (_request, reply) => reply.type('text/html; charset=utf-8').send(html));
  fastify.get(`${options.base}/swagger-ui-init.js`, (_request, reply) =>
    reply.type(ASSETS['swagger-ui-bundle.js']).send(init),
  );
  for (const [file, type] of Object.entries(ASSETS)) {
    fastify.get(`${options.base}/${file}`, (_request, reply) => {
      let body = cache.get(file);
      if (!body) {
        body = readFileSync(join(assetsDir(), file));
        cache.set(file, body);
      }
      return reply.type(type).header('cache-control', 'public, max-age=86400').send(body);
    });
  }
}
