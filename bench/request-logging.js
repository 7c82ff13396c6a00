// CPU per request of the server process on `/` (a page-cache hit) and a signed-in dashboard page
// (/dashboard/billing, rendered every time), to compare the per-request log line and metrics
// (docs/decisions/XXXX-structured-logs-and-metrics.md) with a build without them: run it from each
// checkout (its own server.js and build/) and divide.
//
//   node bench/request-logging.js                 LOG_LEVEL=info (the production default)
//   BENCH_LOG_LEVEL=warn node bench/request-logging.js      request lines not written
//   METRICS_TOKEN=… node bench/request-logging.js            metrics recorded too
//   LOGGING_REQUESTS=3000 LOGGING_DASHBOARD_REQUESTS=300 LOGGING_CONCURRENCY=8
//
// Prints CPU ms per request (the server's user + system time from /proc over the run, divided by the
// requests) and requests per second; nothing is asserted.
import http from "node:http";
import { cpuSeconds, signedInWithTrial, startServer } from "./lib/common.js";

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
