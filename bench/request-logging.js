// CPU per request of the server process on `/` (a page-cache hit) and a signed-in dashboard page
// (/dashboard/billing, rendered every time), to compare the per-request log line and metrics
// (docs/decisions/0071-structured-logs-and-metrics.md) with a build without them: run it from each
// checkout (its own server.js and build/) and divide.
//
//   node bench/request-logging.js                 LOG_LEVEL=info (the production default)
//   BENCH_LOG_LEVEL=warn node bench/request-logging.js      request lines not written
//   METRICS_TOKEN=… node bench/request-logging.js            metrics recorded too
//   LOGGING_REQUESTS=3000 LOGGING_DASHBOARD_REQUESTS=300 LOGGING_CONCURRENCY=8
//
// Prints CPU ms per request (the server's user + system time from /proc over the run, divided by the
// requests) and requests per second; nothing is asserted.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { cpuSeconds, freePort, signedInWithTrial, sleep } from "./lib/common.js";
import { SERVER_ENV, SERVER_NODE_FLAGS } from "../app/server/process/processes.server.js";

const REQUESTS = Number(process.env.LOGGING_REQUESTS ?? 3000);
const DASHBOARD_REQUESTS = Number(process.env.LOGGING_DASHBOARD_REQUESTS ?? 300);
const CONCURRENCY = Number(process.env.LOGGING_CONCURRENCY ?? 8);
process.env.BENCH_LOG_LEVEL ??= "info";

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** One GET on a kept-alive connection; resolves with the status once the body is read. */
function get(server, path, headers) {
  return new Promise((resolve, reject) => {
    const req = http.get(`${server.url}${path}`, { agent, headers: { host: new URL(server.origin).host, ...headers } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
    });
    req.on("error", reject);
  });
}

async function measure(server, name, path, count, headers = {}) {
  let sent = 0;
  const statuses = new Map();
  const before = await cpuSeconds(server.pid);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (sent < count) {
        sent++;
        const status = await get(server, path, headers);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const after = await cpuSeconds(server.pid);
  const cpuMs = before && after ? ((after.server - before.server) * 1000) / count : NaN;
  console.log(
    `${name.padEnd(20)} ${count} requests  ${cpuMs.toFixed(3)} CPU ms/request  ${(count / seconds).toFixed(0)} req/s  statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
  return cpuMs;
}

/**
 * `node server.js` of the current folder on a new PGlite folder, waited for as long as its first
 * start (migrations, seed) takes on a busy machine.
 */
async function startServer() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-logging-"));
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, "server.js"], {
    env: {
      ...SERVER_ENV,
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      PUBLIC_SITE_URL: `http://localhost:${port}`,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL,
      PASSWORD_HASH_COST: "test",
    },
    stdio: ["ignore", "ignore", "ignore"],
  });
  process.once("exit", () => child.kill("SIGKILL"));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 3000 && child.exitCode === null; i++) {
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    ) {
      return {
        url,
        origin: `http://localhost:${port}`,
        pid: child.pid,
        stop: () => new Promise((resolve) => (child.kill("SIGTERM"), child.once("exit", resolve))),
        removeData: () => rmSync(dataDir, { recursive: true, force: true }),
      };
    }
    await sleep(200);
  }
  child.kill("SIGKILL");
  throw new Error("server did not start");
}

const server = await startServer();
try {
  // The page cache stores `/` on its second render.
  for (let i = 0; i < 5; i++) await get(server, "/", {});
  const user = await signedInWithTrial(server);
  for (let i = 0; i < 20; i++) await get(server, "/dashboard/billing", { cookie: user.cookie });
  await measure(server, "/ (page-cache hit)", "/", REQUESTS);
  await measure(server, "/dashboard/billing", "/dashboard/billing", DASHBOARD_REQUESTS, { cookie: user.cookie });
} finally {
  agent.destroy();
  await server.stop();
  server.removeData();
}
