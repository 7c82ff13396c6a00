// Logs and /metrics of the production server (`node server.js` on the build):
//   1. without METRICS_TOKEN: a request with a session cookie, an address in its query and a sane
//      X-Request-Id yields one log line with that id (the X-Request-Id answered), its route pattern,
//      status and duration, and no line holds the cookie's value or the address; an id that is not
//      sane is replaced by a new one; /metrics is a 404 like any unknown path;
//   2. with METRICS_TOKEN: /metrics answers 401 without a bearer and with a wrong one, 200 with it,
//      and the scrape holds the request-duration histogram by route (`/apps/:slug`, not the URL),
//      the admission line, the page cache, the job queues, the lead outbox and the database pool;
//   3. with PostgreSQL (TEST_DATABASE_URL) and WEB_CONCURRENCY=2: one scrape counts the requests
//      every worker answered (prom-client's AggregatorRegistry in the cluster primary).
// Writes test-reports/observability.json (see lib.js). No wall-clock assertions: every wait is a poll.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, fromTemplate, Report, resetPostgres, startServer as startServerWithin, waitFor } from "./lib.js";

const report = new Report("observability");
const TOKEN = "observability-test-token-0123456789";
const EMAIL = "obs.lead+private@example.com";
const COOKIE_VALUE = "not-a-real-session-but-secret-4711";
// A first start migrates and seeds a new folder: slow on a busy machine shared with other work.
const startServer = (options) => startServerWithin({ timeoutMs: 300_000, ...options });
const lines = (text) => text.split("\n").filter((line) => line.trim() !== "");

/** Every JSON line the server printed, parsed. */
function printedLines(server) {
  const { stdout, stderr } = server.printed();
  return lines(`${stdout}\n${stderr}`).flatMap((line) => {
    try {
      return [JSON.parse(line)];
    } catch {
      return [];
    }
  });
}

async function logsWithoutMetrics(dataDir) {
  const port = await freePort();
  const server = await startServer({
    name: "obs-logs",
    port,
    env: { DATA_DIR: dataDir, PUBLIC_SITE_URL: `http://localhost:${port}`, LOG_LEVEL: "info" },
  });
  try {
    const sent = "rel-obs.request_1";
    const res = await fetch(`${server.url}/apps?email=${encodeURIComponent(EMAIL)}&q=${encodeURIComponent(EMAIL)}`, {
      headers: { cookie: `better-auth.session_token=${COOKIE_VALUE}; theme=${COOKIE_VALUE}`, "x-request-id": sent },
    });
    await res.arrayBuffer();
    const answered = res.headers.get("x-request-id");
    const line = await waitFor("the request's log line", () =>
      printedLines(server).find((l) => l.reqId === sent && l.msg === "request completed"),
    );
    report.check(
      "a request's log line carries the request id it was answered with",
      answered === sent && line.reqId === answered,
      { answered, line },
    );
    report.check(
      "the line names method, path, route pattern, status and duration",
      line.req?.method === "GET" &&
        line.req?.path === "/apps" &&
        line.route === "/apps" &&
        typeof line.status === "number" &&
        typeof line.ms === "number",
      { line },
    );
    const everything = Object.values(server.printed()).join("");
    report.check(
      "no line holds the cookie's value or the address from the query",
      !everything.includes(COOKIE_VALUE) && !everything.includes(EMAIL) && !everything.includes(encodeURIComponent(EMAIL)),
      { lines: lines(everything).length },
    );

    const detail = await fetch(`${server.url}/apps/no-such-app-${Date.now()}`, {
      headers: { "x-request-id": "has spaces and \u00e9" },
    });
    await detail.arrayBuffer();
    const made = detail.headers.get("x-request-id");
    // Its own line, not another of that request's (a warning on stderr can be read before it).
    const madeLine = await waitFor("the second request's log line", () =>
      printedLines(server).find((l) => l.reqId === made && l.msg === "request completed"),
    );
    report.check(
      "an id that is not sane is replaced by a new one, and the route is the pattern, not the URL",
      /^[0-9a-f-]{36}$/.test(made ?? "") && madeLine.route === "/apps/:slug",
      { made, route: madeLine.route, status: madeLine.status },
    );

    const metrics = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    await metrics.arrayBuffer();
    report.check("without METRICS_TOKEN, /metrics is a 404", metrics.status === 404, { status: metrics.status });
  } finally {
    await server.stop();
  }
}

const EXPECTED_SERIES = [
  'http_request_duration_seconds_bucket{le="0.001",method="GET",route="/apps/:slug"',
  'http_request_duration_seconds_count{method="GET",route="/",status="200",cache="hit"}',
  "# TYPE admission_requests gauge",
  'admission_requests{state="waiting"}',
  "admission_wait_seconds_count",
  'page_cache_lookups_total{result="hit"}',
  "# TYPE job_queue_jobs gauge",
  "lead_outbox_oldest_age_seconds",
  'db_pool_connections{state="total"}',
  "process_cpu_user_seconds_total",
];

/** Asks for pages until the anonymous page cache answers `/` (stored on its second render). */
async function warmUp(server) {
  await fetch(`${server.url}/apps/no-such-app`).then((r) => r.arrayBuffer());
  await waitFor("a page-cache hit on /", async () => {
    const res = await fetch(`${server.url}/`);
    await res.arrayBuffer();
    return res.headers.get("x-page-cache") === "hit";
  });
}

async function metricsWithToken(dataDir) {
  const port = await freePort();
  const server = await startServer({
    name: "obs-metrics",
    port,
    env: { DATA_DIR: dataDir, PUBLIC_SITE_URL: `http://localhost:${port}`, METRICS_TOKEN: TOKEN },
  });
  try {
    await warmUp(server);
    for (const [name, headers] of [
      ["no Authorization", {}],
      ["a wrong bearer", { authorization: "Bearer wrong-token-0123456789abcdef" }],
      ["the token without Bearer", { authorization: TOKEN }],
    ]) {
      const res = await fetch(`${server.url}/metrics`, { headers });
      const body = await res.text();
      report.check(`/metrics with ${name}: 401, nothing shown`, res.status === 401 && !body.includes("http_request"), {
        status: res.status,
      });
    }
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const text = await res.text();
    const missing = EXPECTED_SERIES.filter((series) => !text.includes(series));
    report.check(
      "/metrics with the token: 200 with the expected series",
      res.status === 200 && (res.headers.get("content-type") ?? "").startsWith("text/plain") && missing.length === 0,
      { status: res.status, missing, bytes: text.length },
    );
    report.check("no series is labelled with a URL", !/route="\/apps\/no-such-app/.test(text), {});
  } finally {
    await server.stop();
  }
}

async function clusterScrape() {
  const DB = process.env.TEST_DATABASE_URL;
  if (!DB) {
    report.skip("WEB_CONCURRENCY=2: one scrape sees every worker", "needs PostgreSQL (TEST_DATABASE_URL)");
    return;
  }
  await resetPostgres(DB);
  const port = await freePort();
  const server = await startServer({
    name: "obs-cluster",
    port,
    env: {
      DATABASE_URL: DB,
      WEB_CONCURRENCY: "2",
      PUBLIC_SITE_URL: `http://localhost:${port}`,
      METRICS_TOKEN: TOKEN,
      LOG_LEVEL: "info",
    },
  });
  try {
    // Both workers listen (the first answers /healthz while the second still boots).
    await waitFor("both workers", () => printedLines(server).some((l) => l.msg === "workers started"), { timeoutMs: 180_000 });
    // New connections each: the kernel spreads them over both workers.
    const requests = 40;
    for (let i = 0; i < requests; i++) {
      const res = await fetch(`${server.url}/healthz`, { headers: { connection: "close" } });
      await res.arrayBuffer();
    }
    const scrapes = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}`, connection: "close" } });
      scrapes.push({ status: res.status, text: await res.text() });
    }
    const counted = scrapes.map(({ text }) =>
      Number(
        /http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200",cache="none"\} (\d+)/.exec(text)?.[1] ??
          -1,
      ),
    );
    // Every /healthz the test sent (and the start-up polls) is in every scrape, whichever worker took it.
    report.check(
      "WEB_CONCURRENCY=2: every scrape counts every worker's requests",
      scrapes.every((s) => s.status === 200) && counted.every((n) => n >= requests),
      { counted, requests },
    );
  } finally {
    await server.stop();
  }
}

const dataParent = mkdtempSync(path.join(tmpdir(), "rel-obs-"));
try {
  // One data folder for both (one at a time): the second start finds it migrated and seeded.
  await logsWithoutMetrics(fromTemplate(path.join(dataParent, "data")));
  await metricsWithToken(path.join(dataParent, "data"));
  await clusterScrape();
} catch (error) {
  report.fail("observability: scenario", error);
} finally {
  rmSync(dataParent, { recursive: true, force: true });
}
const summary = report.write();
process.exit(summary.failed === 0 ? 0 : 1);
