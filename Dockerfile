# The app's production image. Build:  docker build -t ai-apps-marketplace .
# NODE_IMAGE is the base of every stage; where no registry is reachable, scripts/container-smoke.sh
# builds a stand-in from Debian's and npm's packages and passes it here.
ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: every dependency, then the bundle -------------------------------------------------
FROM ${NODE_IMAGE} AS build
# Marks the build's intermediate images, which a rebuild leaves behind, for `docker image prune`.
LABEL ai-apps-marketplace.stage=build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# ---- production dependencies only ---------------------------------------------------------------
# --omit=optional too: npm keeps a devDependency that is also an optional peer of a production
# package (Vite, TypeScript, Vitest, drizzle-kit through better-auth and React Router) unless both
# are omitted (docs/decisions/0064-container-image.md).
FROM ${NODE_IMAGE} AS deps
LABEL ai-apps-marketplace.stage=build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund && npm cache clean --force

# ---- runtime ------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/app/data MALLOC_ARENA_MAX=2
WORKDIR /app
# What `node server.js` reads: the entry and its plain-JS helpers, the bundle, the migrations
# (app/server/process/runtime-files.js lists them; tests/reliability/production-install.js proves
# the list is enough).
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json server.js ./
COPY app/server/process/env-file.server.js app/server/process/processes.server.js ./app/server/process/
COPY app/server/log-line.server.js app/server/logger.server.js app/server/metrics.server.js app/server/tracing.server.js ./app/server/
COPY app/server/http/per-request-compression.server.js ./app/server/http/
# The release step (npm run db:migrate; compose.yaml's migrate service).
COPY scripts/db-migrate.js ./scripts/
COPY drizzle ./drizzle
COPY --from=build /app/build ./build
# PGlite's folder when no DATABASE_URL is set (mount a volume here); unused on PostgreSQL.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# server.js handles SIGTERM itself, also as PID 1: it drains the accept queue, finishes its requests
# and closes the database (docs/decisions/0024). compose.yaml adds Docker's init (tini) in front,
# which forwards the signal and reaps any orphaned process.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# --max-semi-space-size, --wasm-tiering-budget, and MALLOC_ARENA_MAX in the runtime ENV above:
# app/server/process/processes.server.js (SERVER_NODE_FLAGS, SERVER_ENV) says why.
CMD ["node", "--max-semi-space-size=16", "--wasm-tiering-budget=1000000000", "server.js"]
