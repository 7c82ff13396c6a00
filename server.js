// Production and development HTTP server. Production imports the built bundle (build/server),
// which already contains the Express app, the routes and the database layer.
import { createServer } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import compression from "compression";
import express from "express";

const DEV = process.argv.includes("--dev") || process.env.NODE_ENV === "development";
// React and the libraries pick their production builds from NODE_ENV when the bundle is loaded.
process.env.NODE_ENV ??= DEV ? "development" : "production";
const BUILD_DIR = path.resolve(process.env.BUILD_DIR || "build");

const server = express();
server.disable("x-powered-by");
server.use(compression());

let mod;
if (DEV) {
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
  mod = await import(pathToFileURL(path.join(BUILD_DIR, "server/index.js")).href);
  // Static files are answered here, before the app's pipeline: same proxies believed (HSTS behind a
  // TLS-terminating proxy) and the same security headers.
  server.set("trust proxy", mod.app.get("trust proxy"));
  const setHeaders = (res) => mod.staticFileSecurityHeaders(res);
  // Hashed assets never change under the same name: cache them for a year.
  server.use(
    "/assets",
    express.static(path.join(BUILD_DIR, "client/assets"), { immutable: true, maxAge: "1y", index: false, setHeaders }),
  );
  server.use(express.static(path.join(BUILD_DIR, "client"), { maxAge: "1h", index: false, setHeaders }));
  server.use(mod.app);
}

try {
  await mod.boot();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST || "0.0.0.0";
// Anonymous pages held by the page cache are answered before Express runs (its per-request work
// costs more than sending a stored page); everything else goes through the whole pipeline.
const listener = createServer((req, res) => {
  if (!mod.servePageFromCache?.(req, res)) server(req, res);
}).listen(port, host, () => {
  const address = listener.address();
  const shown = typeof address === "object" && address ? address.port : port;
  console.log(JSON.stringify({ t: new Date().toISOString(), level: "info", msg: "listening", url: `http://localhost:${shown}` }));
});

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(JSON.stringify({ t: new Date().toISOString(), level: "info", msg: "shutting down", signal }));
  // Stop accepting connections, let in-flight requests finish, then close the database so PGlite
  // flushes and releases the data folder.
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  listener.close(async () => {
    try {
      await mod.shutdown();
      process.exit(0);
    } catch (error) {
      console.error(error);
      process.exit(1);
    }
  });
  listener.closeIdleConnections?.();
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
