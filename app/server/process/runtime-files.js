/**
 * What a production host needs besides node_modules and build/: the entry, the plain-JS helpers it
 * imports (outside the bundle), the release step and the migrations. The Dockerfile's runtime stage
 * copies these, README's Production section names them, and the production-install proof
 * (tests/reliability/production-install.js) installs and starts from exactly these.
 */
export const RUNTIME_FILES = [
  "package.json",
  "package-lock.json",
  "server.js",
  "app/server/process/env-file.server.js",
  "app/server/process/processes.server.js",
  "app/server/log-line.server.js",
  "app/server/logger.server.js",
  "app/server/metrics.server.js",
  "app/server/tracing.server.js",
  "app/server/http/per-request-compression.server.js",
  "scripts/db-migrate.js",
  "drizzle",
];
