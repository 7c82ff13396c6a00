// Production and development HTTP server. Production imports the built bundle (build/server),
// which already contains the Express app, the routes and the database layer.
//
// WEB_CONCURRENCY=N (production, with DATABASE_URL) runs N worker processes on the one port
// (node:cluster), so signed-in pages, which render per request, use every core
// (docs/decisions/0018-worker-processes.md).
import cluster from "node:cluster";
import { readdirSync } from "node:fs";
import { createServer } from "node:http";
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { loadEnvFile } from "./app/server/process/env-file.server.js";
import { isDevelopmentServer, serverProcesses } from "./app/server/process/processes.server.js";
import { describeError } from "./app/server/log-line.server.js";
import { PER_REQUEST_BROTLI } from "./app/server/http/per-request-compression.server.js";
import { createRequestLogger, keepOutputJsonLines, labelRoute, logger, requestContext } from "./app/server/logger.server.js";
import {
  answerClusterScrapes,
  answerMetrics,
  clusterMetrics,
  isMetricsRequest,
  metricsToken,
  observeRequest,
  processMetrics,
  serveClusterMetrics,
} from "./app/server/metrics.server.js";

// The operator's .env, before any setting is read; what the environment already sets wins
// (docs/decisions/0054-local-origins-and-env-file.md). A cluster worker inherits the primary's.
let envFile = null;
let envFileError = null;
try {
  envFile = loadEnvFile();
} catch (error) {
  envFileError = error;
}

const DEV = isDevelopmentServer(process.argv, process.env);
// React and the libraries pick their production builds from NODE_ENV when the bundle is loaded.
process.env.NODE_ENV ??= DEV ? "development" : "production";
const BUILD_DIR = path.resolve(process.env.BUILD_DIR || "build");

// One JSON line per event and per request (pino; app/server/logger.server.js).
const log = logger();
const logLine = (level, msg, fields) => log[level](fields ?? {}, msg);
// Every line on stdout and stderr is one JSON object, including what libraries print and Node's
// warnings (the development server keeps Vite's own output).
if (!DEV) keepOutputJsonLines(log);

if (envFileError) {
  logLine("error", `cannot start: cannot read .env: ${describeError(envFileError)}`);
  process.exit(1);
}
// Names only: a value may be a secret.
if (envFile && cluster.isPrimary) logLine("info", "settings read from .env", { file: envFile.file, names: envFile.names });

// What throws outside any request is logged as one line from the first moment, in every process
// (the cluster primary too), not only once the server listens (docs/decisions/0023).
let onUncaughtException = () => process.exit(1);
// A promise that failed with nobody awaiting it (a request's own errors are answered by Express
// and React Router): logged, and the server keeps serving everyone else, where Node's default would
// exit on the spot.
process.on("unhandledRejection", (reason) => {
  logLine("error", "unhandled promise rejection", { error: describeError(reason, { stack: true }) });
});
// A throw outside any request: the process's state is unknown, so it stops; once the server listens,
// the way SIGTERM does (in-flight requests finish, the database closes and releases its folder),
// with exit code 1 for the supervisor (or the cluster primary) to restart it.
process.on("uncaughtException", (error) => {
  logLine("error", "uncaught exception: stopping", { error: describeError(error, { stack: true }) });
  onUncaughtException();
});

// A worker answers the primary's requests for its own metrics.
if (cluster.isWorker && metricsToken()) answerClusterScrapes();

const workers = cluster.isPrimary ? workerCount() : 1;
if (workers > 1) await runPrimary(workers);
else await runServer();

/**
 * WEB_CONCURRENCY, checked like the rest of the configuration: a bad value stops the server. The rule
 * is shared with the app, which divides Mailchimp's connection budget between the processes.
 */
function workerCount() {
  const { count, invalid, ignored } = serverProcesses(process.env, DEV);
  if (invalid) {
    logLine("error", `Invalid configuration: WEB_CONCURRENCY: ${invalid}`);
    process.exit(1);
  }
  if (ignored) {
    logLine("warn", "WEB_CONCURRENCY > 1 needs DATABASE_URL (PostgreSQL); serving with one process", { requested: ignored });
  }
  return count;
}

/** Starts one worker; true once it listens, false if it exits first. */
function fork() {
  return new Promise((resolve) => {
    const worker = cluster.fork();
    worker.once("listening", () => {
      worker.listenedOnce = true;
      resolve(true);
    });
    worker.once("exit", () => resolve(false));
  });
}

/**
 * The primary process: starts the workers, replaces one that dies, and on SIGTERM/SIGINT stops them
 * all (each finishes its requests and closes its database pool) before it exits.
 */
async function runPrimary(count) {
  // One scrape, whichever worker takes it, sees every worker's metrics, summed here.
  if (metricsToken()) serveClusterMetrics((worker) => worker.listenedOnce === true);
  let stopping = false;
  let started = false;
  const recentExits = [];
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    logLine("error", "worker exited", { pid: worker.process.pid, code, signal });
    // A worker that never listened during the first start is reported by that start below.
    if (!started && !worker.listenedOnce) return;
    const at = Date.now();
    recentExits.push(at);
    while (recentExits.length && recentExits[0] < at - 60_000) recentExits.shift();
    if (recentExits.length > 5) {
      // Crashing in a loop (a bad deploy, a database gone): exit so the supervisor sees it.
      logLine("error", "workers keep exiting: stopping", { exitsInLastMinute: recentExits.length });
      void stopAll(1);
      return;
    }
    setTimeout(() => {
      if (!stopping) void fork();
    }, 1000);
  });

  async function stopAll(exitCode) {
    if (stopping) return;
    stopping = true;
    const alive = Object.values(cluster.workers ?? {}).filter(Boolean);
    const gone = alive.map((w) => new Promise((resolve) => (w.isDead() ? resolve() : w.once("exit", resolve))));
    for (const w of alive) w.process.kill("SIGTERM");
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await Promise.all(gone);
    process.exit(exitCode);
  }
  for (const signal of ["SIGTERM", "SIGINT"]) {
    process.on(signal, () => {
      logLine("info", "shutting down", { signal, workers: count });
      void stopAll(0);
    });
  }

  // The first worker boots alone (migrations, seeds): concurrent boots are safe too (advisory lock,
  // upserts), but this way a bad configuration or an unreachable database fails once, not N times.
  if (!(await fork()) || !(await Promise.all(Array.from({ length: count - 1 }, fork))).every(Boolean)) {
    logLine("error", "a worker failed to start");
    await stopAll(1);
    return;
  }
  started = true;
  logLine("info", "workers started", { workers: count, pids: Object.values(cluster.workers ?? {}).map((w) => w?.process.pid) });
}

async function runServer() {
  // OpenTelemetry tracing, only when the standard OTEL_* variables ask for it: the SDK is not even
  // loaded otherwise (docs/observability.md). Before Express and the bundle are loaded, so that their
  // libraries are instrumented.
  const { startTracing, tracingRequested } = await import("./app/server/tracing.server.js");
  const stopTracing = tracingRequested(process.env) ? await startTracing(log) : null;
  const { default: express } = await import("express");
  const { default: compression } = await import("compression");

  const server = express();
  server.disable("x-powered-by");
  // Brotli (what browsers take) at the quality for one request's response (docs/decisions/0098).
  server.use(compression({ brotli: PER_REQUEST_BROTLI }));

  let mod;
  if (DEV) {
    // Vite loads the app's react-router with the "development" export condition; @react-router/express,
    // which Node loads itself, must get that same copy, or React Router's RouterContextProvider
    // instance check fails and every page answers 500.
    if (!import.meta.resolve("react-router").includes("/dist/development/")) {
      logLine(
        "error",
        "Development mode needs Node's development export condition: run `npm run dev` " +
          "(node --conditions=development server.js --dev).",
      );
      process.exit(1);
    }
    const vite = await import("vite").then((v) => v.createServer({ server: { middlewareMode: true } }));
    server.use(vite.middlewares);
    mod = await vite.ssrLoadModule("./server/app.ts");
    server.use(async (req, res, next) => {
      try {
        const fresh = await vite.ssrLoadModule("./server/app.ts");
        return fresh.app(req, res, next);
      } catch (error) {
        if (error instanceof Error) vite.ssrFixStacktrace(error);
        next(error);
      }
    });
  } else {
    try {
      mod = await import(pathToFileURL(path.join(BUILD_DIR, "server/index.js")).href);
    } catch (error) {
      // An invalid setting fails the bundle's first lines (the configuration is read at import).
      logLine("error", `cannot start: ${describeError(error)}`);
      process.exit(1);
    }
    // Static files are answered here, before the app's pipeline: same proxies believed (HSTS behind a
    // TLS-terminating proxy) and the same security headers.
    server.set("trust proxy", mod.app.get("trust proxy"));
    const setHeaders = (res) => mod.staticFileSecurityHeaders(res);
    // Hashed assets never change under the same name: cache them for a year.
    server.use(
      "/assets",
      (_req, res, next) => {
        labelRoute(res, "/assets/*");
        next();
      },
      express.static(path.join(BUILD_DIR, "client/assets"), { immutable: true, maxAge: "1y", index: false, setHeaders }),
    );
    // The other files of public/ (favicon.svg, ...): only paths under one of the folder's own entries
    // reach serve-static, so a page or data request costs no filesystem lookup on its way to the app.
    const clientDir = path.join(BUILD_DIR, "client");
    const publicEntries = new Set(readdirSync(clientDir).filter((name) => name !== "assets" && !name.startsWith(".")));
    const publicFiles = express.static(clientDir, { maxAge: "1h", index: false, setHeaders });
    server.use((req, res, next) => {
      if (!publicEntries.has(req.path.split("/")[1])) return next();
      labelRoute(res, "public file");
      publicFiles(req, res, next);
    });
    server.use(mod.app);
  }

  // Whatever throws in Express's own pipeline here (compression, static files, Vite): one log line
  // and a plain 500, not Express's default of a stack trace on stderr.
  server.use(mod.answerUnhandledError);

  // The server listens once the database and sign-in are ready; the job queue finishes starting
  // beside it, and a start that fails is tried again (app/server/boot.server.ts).
  try {
    await mod.bootForServing();
  } catch (error) {
    logLine("error", `cannot start: ${describeError(error)}`);
    process.exit(1);
  }

  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST || "0.0.0.0";
  // Anonymous pages held by the page cache are answered before Express runs (its per-request work
  // costs more than sending a stored page); everything else goes through the whole pipeline.
  // Every request, those answered from the cache too, gets one log line with its id (sent back as
  // X-Request-Id, and on every line written while it is served) and, with METRICS_TOKEN, is counted
  // by route in /metrics.
  const token = metricsToken();
  const logRequest = createRequestLogger(log, token ? observeRequest : undefined);
  const scrape = cluster.isWorker ? clusterMetrics : processMetrics;
  let draining = false;
  let connectionsTaken = 0;
  const listener = createServer((req, res) => {
    const id = logRequest(req, res);
    // While stopping, every answer closes its connection, so clients come back on a new one elsewhere.
    if (draining) res.setHeader("Connection", "close");
    requestContext.run({ id }, () => {
      if (token && isMetricsRequest(req)) return void answerMetrics(req, res, token, scrape);
      // A cache hit adds the id to its stored header list itself (one writeHead).
      mod.servePageFromCache(req, res, () => {
        res.setHeader("X-Request-Id", id);
        // A request that waited for another's first render of its page is served in its own context.
        requestContext.run({ id }, () => server(req, res));
      });
    });
  })
    // A CONNECT (a proxy tunnel) and a method Node's parser does not know never reach Express.
    .on("connect", mod.refuseConnect)
    .on("clientError", mod.answerClientError)
    .listen(port, host, () => {
      const address = listener.address();
      const shown = typeof address === "object" && address ? address.port : port;
      logLine("info", "listening", { url: `http://localhost:${shown}`, ...(cluster.isWorker ? { pid: process.pid } : {}) });
    });
  // An idle keep-alive connection is closed after this long (Node's default, stated here because the
  // proxy in front must give up its idle connections sooner: docker/nginx.conf keeps them 4 s).
  listener.keepAliveTimeout = 5_000;
  // Counted for the drain in stop().
  listener.on("connection", () => {
    connectionsTaken++;
  });
  // A port that is taken (another server) or not ours to bind: one clear line and a clean close of
  // the database, not an uncaught exception's stack trace.
  listener.once("error", async (error) => {
    const reason =
      error.code === "EADDRINUSE"
        ? `port ${port} on ${host} is already in use (another server?): stop it or set PORT`
        : error.code === "EACCES"
          ? `no permission to listen on port ${port} on ${host}: use a port above 1023 or set PORT`
          : error.message;
    logLine("error", `cannot listen: ${reason}`, { code: error.code });
    try {
      await mod.shutdown();
    } finally {
      process.exit(1);
    }
  });

  let stopping = false;
  async function stop(signal, exitCode = 0) {
    if (stopping) return;
    stopping = true;
    logLine("info", "shutting down", { signal });
    // Stop accepting connections, let in-flight requests finish, then close the database so PGlite
    // flushes and releases the data folder.
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    // Closing the listening socket resets every connection the kernel has accepted but this process
    // has not yet taken (one per event-loop turn under load): their requests were sent and would get
    // a reset, a 502 behind a proxy. So connections are still taken, each answered and closed, until
    // five timer turns in a row (each one a pass over the socket) bring none, at most 3 s; only then
    // is the socket closed.
    draining = true;
    const drainStarted = Date.now();
    let seen = connectionsTaken;
    for (let quiet = 0; quiet < 5 && Date.now() - drainStarted < 3_000;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (connectionsTaken === seen) quiet++;
      else [quiet, seen] = [0, connectionsTaken];
    }
    // Idle keep-alive connections are not cut here (http.Server#close would): a proxy may be sending
    // its next request on one at that very moment, and a POST it had sent cannot be retried
    // elsewhere, so it answers 502. They end on their own keep-alive timeout instead, later than the
    // proxy's own idle timeout (docker/nginx.conf, DEPLOY.md), so the proxy lets go of them first;
    // a request that still arrives on one is answered, with Connection: close.
    net.Server.prototype.close.call(listener, async () => {
      try {
        await mod.shutdown();
        await stopTracing?.();
        process.exit(exitCode);
      } catch (error) {
        logLine("error", "shutdown failed", { error: describeError(error, { stack: true }) });
        process.exit(1);
      }
    });
  }
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  onUncaughtException = () => void stop("uncaughtException", 1);
}
