// What a per-user page cache could do for the signed-in dashboard target (issue 6: p99 <= 50 ms under
// 64 connections; ADR 0017). A cache could skip the page's render and its reads, but not what
// every signed-in page load must still do on the server. This measures, with wrk at 64 connections
// on one signed-in account (a started trial, like bench/throughput.js), in one run:
//   1. a stored, already gzipped page answered by a React Router resource route (no session check);
//   2. the same after the least a session check that sees sign-outs can do: the cookie's signature
//      and one hand-written SQL statement (a lower bound: no Better Auth, no Drizzle);
//   3. the same after the session check every protected request starts with (requireUser);
//   4. the same after the dashboard layout's per-visit work too (the visit written, the trial gate
//      and the settings read: the spec's analytics and trial overlay count every load);
//   5. the real /dashboard/billing;
//   6. on PostgreSQL, step 2 in a bare Express handler of this process (no React Router): what a cache
//      answered before React Router could reach.
// Steps 1-4 are app/routes/dev/bench-floor.ts, in a build of its own (BENCH_ROUTES=1 ->
// build-bench-floor/, rebuilt on every run) that the product's build never contains.
//
//   node bench/dashboard-floor.js       FLOOR_SECONDS=10 FLOOR_CONNECTIONS=64 (wrk's -d and -c)
//   BENCH_DATABASE_URL=postgres://...    on an (empty) PostgreSQL database instead of PGlite
//
// Needs wrk (Debian: apt-get install -y wrk); without it, prints why and exits 0.
import { rmSync } from "node:fs";
import path from "node:path";

process.env.BUILD_DIR = path.resolve("build-bench-floor");
process.env.BENCH_ROUTES = "1";
const { cpuSeconds, loadAverage, request, signedInWithTrial, startServer, table } = await import("./lib/common.js");
const { wrk, wrkBin } = await import("./lib/wrk.js");

if (!wrkBin) {
  console.log("bench/dashboard-floor.js skipped: wrk not found (Debian: apt-get install -y wrk).");
  process.exit(0);
}
const SECONDS = Number(process.env.FLOOR_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.FLOOR_CONNECTIONS ?? 64);
const TARGET_P99_MS = 50;

rmSync(process.env.BUILD_DIR, { recursive: true, force: true });
const server = await startServer();
const rows = [];
try {
  const before = await loadAverage();
  console.log(
    `bench/dashboard-floor.js: ${server.url}, ${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite"}, ` +
      `wrk -t2 -c${CONNECTIONS} -d${SECONDS}s; ${new Date().toISOString()}; load average ${before.loadavg.join(" ")} (${before.cpus} cores)`,
  );
  const { cookie, host, trialStatus } = await signedInWithTrial(server);
  if (trialStatus !== 302) throw new Error(`starting the trial answered ${trialStatus}`);
  const headers = [`Cookie: ${cookie}`, `Host: ${host}`, "Accept-Encoding: gzip"];
  const steps = [
    ["stored page, no session check", "/dev/bench-floor?step=page"],
    ["+ one session read (signature + 1 SQL statement)", "/dev/bench-floor?step=read"],
    ["+ session check", "/dev/bench-floor?step=session"],
    ["+ visit, trial gate, settings", "/dev/bench-floor?step=visit"],
    ["/dashboard/billing (rendered)", "/dashboard/billing"],
  ];
  // A first, unrecorded run: the server's code is still being compiled by V8 in the first seconds,
  // which would otherwise show up as the first step's tail.
  await wrk(server.url + steps[0][1], headers, { connections: CONNECTIONS, seconds: 3 });
  for (const [name, p] of steps) {
    const check = await request(server.url, { path: p, host, headers: { cookie }, newConnection: true });
    if (check.status !== 200) throw new Error(`${p} answered ${check.status}`);
    const cpu0 = server.pid ? await cpuSeconds(server.pid) : null;
    const r = await wrk(server.url + p, headers, { connections: CONNECTIONS, seconds: SECONDS });
    const cpu1 = cpu0 ? await cpuSeconds(server.pid) : null;
    const cpuMs = cpu1 ? ((cpu1.server - cpu0.server + cpu1.postgres - cpu0.postgres) * 1000) / r.requests : NaN;
    rows.push({ name, path: p, rps: r.rps, p50: r.p50, p99: r.p99, cpuMs, errors: r.socketErrors + r.non2xx3xx });
    // Let the line the run left behind drain before the next step.
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  if (process.env.BENCH_DATABASE_URL) {
    // Step 2 again, answered by a bare Express handler in this process instead of the product's
    // pipeline (React Router's request handling, its middleware): what a cache answered before
    // React Router, like the anonymous page cache (ADR 0015), could reach. PostgreSQL only: the
    // PGlite folder belongs to the server.
    const bare = await bareReadServer(process.env.BENCH_DATABASE_URL);
    try {
      const r = await wrk(`${bare.url}/page`, headers, { connections: CONNECTIONS, seconds: SECONDS });
      rows.push({
        name: "step 2 in bare Express (no React Router)",
        path: "/page",
        rps: r.rps,
        p50: r.p50,
        p99: r.p99,
        cpuMs: NaN,
        errors: r.socketErrors + r.non2xx3xx,
      });
    } finally {
      await bare.close();
    }
  }
} finally {
  await server.stop();
}

/** Express answering the stored page after the cookie's session is read by one SQL statement. */
async function bareReadServer(databaseUrl) {
  const { default: express } = await import("express");
  const { default: pg } = await import("pg");
  const { gzipSync } = await import("node:zlib");
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  const body = gzipSync(
    Array.from({ length: 400 }, (_, i) => `<div class="row"><span>Line ${i}</span><span>${(i * 7919) % 1000}</span></div>`).join(
      "\n",
    ),
  );
  const app = express();
  // Express 5 forwards a rejected promise to its error handler; the named function keeps the lint rule quiet.
  app.get("/page", (req, res, next) => answer(req, res).catch(next));
  async function answer(req, res) {
    const m = /better-auth\.session_token=([^;]+)/.exec(req.headers.cookie ?? "");
    const token = decodeURIComponent(m?.[1] ?? "").split(".")[0];
    const found = await pool.query({
      name: "session",
      text: 'select u.id, u.email from "session" s join "user" u on u.id = s.user_id where s.token = $1 and s.expires_at > now()',
      values: [token],
    });
    if (found.rows.length === 0) return res.status(401).end();
    res.set({ "Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip", "Cache-Control": "no-store" }).end(body);
  }
  const listener = await new Promise((resolve) => {
    const l = app.listen(0, "127.0.0.1", () => resolve(l));
  });
  return {
    url: `http://127.0.0.1:${listener.address().port}`,
    close: async () => {
      await new Promise((resolve) => listener.close(resolve));
      await pool.end();
    },
  };
}

const f = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "-");
console.log("");
console.log(
  table(
    ["step", "req/s", "p50 ms", "p99 ms", "CPU ms/request (server + PostgreSQL)", "errors"],
    rows.map((r) => [r.name, f(r.rps), f(r.p50), f(r.p99), f(r.cpuMs, 2), String(r.errors)]),
  ),
);
const need = (CONNECTIONS * 1000) / TARGET_P99_MS;
console.log(
  `\np99 <= ${TARGET_P99_MS} ms at ${CONNECTIONS} connections needs about ${need.toFixed(0)} req/s (Little's law). ` +
    `A per-user page cache with the least session check (step 2): ${f(rows[1].rps)} req/s, p99 ${f(rows[1].p99)} ms; ` +
    `with requireUser (step 3): ${f(rows[2].rps)} req/s, p99 ${f(rows[2].p99)} ms; ` +
    `no work at all (step 1): p99 ${f(rows[0].p99)} ms.` +
    (rows[5] ? ` Step 2 before React Router: ${f(rows[5].rps)} req/s, p99 ${f(rows[5].p99)} ms.` : ""),
);
