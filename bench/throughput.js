// Throughput: requests per second of the anonymous pages /, /apps and /packages served by
// our server, against nginx serving the same bytes as static files, measured with wrk in the same
// run; and the p99 latency of a signed-in dashboard page (/dashboard/billing) under 64 connections,
// and with one connection (the page's own time, with no request queued ahead of it).
// Targets: ours >= 25% of nginx's req/s per page; dashboard p99 <= 50 ms under 64 connections.
//
//   node bench/throughput.js                  builds if needed (BUILD_DIR), starts `node server.js`
//                                             on a throw-away PGlite folder
//   BENCH_URL=http://127.0.0.1:3000 node bench/throughput.js
//                                             an already running server (BENCH_ORIGIN: its
//                                             PUBLIC_SITE_URL origin when it differs)
//   THROUGHPUT_SECONDS=10 THROUGHPUT_CONNECTIONS=64 THROUGHPUT_THREADS=2   wrk's -d, -c and -t
//   WRK_BIN, NGINX_BIN: other binaries ("" = treat as missing); THROUGHPUT_OUT (/tmp/bench-results/throughput.json)
//
// Needs wrk and nginx on PATH (Debian: apt-get install -y wrk nginx); without them it prints why
// and exits 0. nginx runs as many worker processes as our server (1, or WEB_CONCURRENCY when the server
// runs workers on PostgreSQL: BENCH_DATABASE_URL), access_log off,
// daemon off, on a free port in 3600-3699. wrk sends no Accept-Encoding, so both servers send the
// uncompressed HTML. wrk, nginx and our server share the machine's cores.
//
// For scale, each page is also measured from a bare `node:http` server (bench/lib/bare-node.js, as
// many processes as ours) that sends the same bytes with the same headers: the most a Node.js
// server gets on this machine, so ours/bare is what our own code and process cost.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  cpuSeconds,
  freePort,
  loadAverage,
  request,
  signedInWithTrial,
  sleep,
  startServer,
  summarise,
  table,
} from "./lib/common.js";
import { which, wrk as runWrk, wrkBin } from "./lib/wrk.js";
import { ab, abBin } from "./lib/ab.js";

const SECONDS = Number(process.env.THROUGHPUT_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.THROUGHPUT_CONNECTIONS ?? 64);
const THREADS = Number(process.env.THROUGHPUT_THREADS ?? 2);
const PAGES = [
  ["/", "index.html"],
  ["/apps", "apps.html"],
  ["/packages", "packages.html"],
];
const NGINX_TARGET = 0.25;
const DASHBOARD_P99_TARGET_MS = 50;

// NGINX_BIN names another binary ("" pretends it is missing); WRK_BIN likewise (bench/lib/wrk.js).
const nginxBin = process.env.NGINX_BIN ?? which("nginx");
if (!wrkBin || !nginxBin) {
  console.log(
    `bench/throughput.js skipped: ${[!wrkBin && "wrk", !nginxBin && "nginx"].filter(Boolean).join(" and ")} not found ` +
      "(Debian: apt-get install -y wrk nginx).",
  );
  process.exit(0);
}

/** wrk with this run's -c, -t and -d unless told otherwise. */
const wrk = (url, headers = [], { connections = CONNECTIONS, threads = THREADS } = {}) =>
  runWrk(url, headers, { connections, threads, seconds: SECONDS });

/** Our server's process count (server.js runs WEB_CONCURRENCY workers only on PostgreSQL); nginx gets as many. */
const PROCESSES =
  process.env.BENCH_URL || !process.env.BENCH_DATABASE_URL ? 1 : Math.max(1, Number(process.env.WEB_CONCURRENCY) || 1);

async function startNginx(dir) {
  const port = await freePort();
  const conf = path.join(dir, "nginx.conf");
  const locations = PAGES.map(([p, file]) => `    location = ${p} { try_files /${file} =404; }`).join("\n");
  writeFileSync(
    conf,
    `daemon off;
worker_processes ${PROCESSES};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  types { }
  default_type text/html;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${path.join(dir, "html")};
${locations}
  }
}
`,
  );
  const child = spawn(nginxBin, ["-p", dir, "-c", conf], { stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${err}`);
    try {
      if ((await fetch(`${url}/`, { signal: AbortSignal.timeout(2000) })).ok) {
        return {
          url,
          stop: () => {
            // SIGTERM: fast shutdown of master and worker (wrk has finished).
            if (child.exitCode === null) child.kill("SIGTERM");
            return exited;
          },
        };
      }
    } catch {
      /* not up yet */
    }
    await sleep(100);
  }
  // SIGTERM (fast shutdown), never SIGKILL: a killed master leaves its worker running.
  child.kill("SIGTERM");
  await exited;
  const log = existsSync(path.join(dir, "error.log")) ? readFileSync(path.join(dir, "error.log"), "utf8") : "";
  throw new Error(`nginx did not start: ${err}${log}`);
}

/** Headers of one connection or one moment, not of the page: the bare server's Node sets its own. */
const HOP_HEADERS = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

/** bench/lib/bare-node.js on a free port, as many processes as ours. */
async function startBareNode(dir) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname, "lib/bare-node.js"), dir, String(port), String(PROCESSES)],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await new Promise((resolve, reject) => {
    child.stdout.on("data", (d) => String(d).includes("listening") && resolve());
    child.once("exit", (code) => reject(new Error(`bare Node server exited ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/**
 * A visitor opening `/` (a page-cache hit) on a new connection every 50 ms until `until` settles:
 * how long other pages wait while signed-in pages keep the server busy (docs/decisions/0026).
 */
async function probeVisitors(base, until) {
  const state = { running: true };
  const stop = () => (state.running = false);
  until.then(stop, stop);
  const times = [];
  let failed = 0;
  while (state.running) {
    const res = await request(base, {
      path: "/",
      newConnection: true,
      headers: { "accept-encoding": "identity" },
      timeoutMs: 10_000,
    });
    if (res.status === 200) times.push(res.ms);
    else failed++;
    await sleep(50);
  }
  return { ...summarise(times), failed };
}

const f = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "-");

const own = !process.env.BENCH_URL;
const server = own
  ? await startServer()
  : { url: process.env.BENCH_URL, origin: process.env.BENCH_ORIGIN || process.env.BENCH_URL, stop: async () => {} };
const dir = mkdtempSync(path.join(tmpdir(), "bench-nginx-"));
// nginx's worker drops root to `nobody`, which must be able to read the copies.
chmodSync(dir, 0o755);
let nginx;
let bare;
const results = { pages: [], dashboard: null };
try {
  const before = await loadAverage();
  console.log(
    `bench/throughput.js: ours ${server.url} (${PROCESSES} process${PROCESSES > 1 ? "es" : ""}) vs nginx (worker_processes ${PROCESSES}, static copies), wrk -t${THREADS} -c${CONNECTIONS} -d${SECONDS}s; ` +
      `${new Date().toISOString()}; load average ${before.loadavg.join(" ")} (${before.cpus} cores)`,
  );
  // The same bytes: each page's HTML fetched once (uncompressed, like wrk asks for it), and for the
  // bare Node server also our answer's headers.
  mkdirSync(path.join(dir, "html"));
  const barePages = [];
  for (const [p, file] of PAGES) {
    const res = await request(server.url, { path: p, headers: { "accept-encoding": "identity" } });
    if (res.status !== 200) throw new Error(`${p} answered ${res.status}`);
    writeFileSync(path.join(dir, "html", file), res.raw);
    const headers = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !HOP_HEADERS.has(name)));
    barePages.push([p, path.join("html", file), headers]);
  }
  writeFileSync(path.join(dir, "pages.json"), JSON.stringify(barePages));
  nginx = await startNginx(dir);
  bare = await startBareNode(dir);

  for (const [p, file] of PAGES) {
    const bytes = (await request(nginx.url, { path: p, headers: { "accept-encoding": "identity" } })).raw.length;
    const ours = await wrk(server.url + p);
    const theirs = await wrk(nginx.url + p);
    const bareNode = await wrk(bare.url + p);
    results.pages.push({ page: p, file, bytes, ours, nginx: theirs, bareNode, ratio: ours.rps / theirs.rps });
  }

  // A signed-in page: a fresh account (own source address), verified, with a started trial.
  const { cookie, host, trialStatus } = await signedInWithTrial(server);
  const check = await request(server.url, { path: "/dashboard/billing", host, headers: { cookie } });
  if (check.status !== 200) throw new Error(`/dashboard/billing answered ${check.status} with the session cookie`);
  // First with one connection: the time the page itself takes, with nobody queued ahead (before the
  // 64-connection run, whose unanswered requests the server is still working through after it).
  const alone = await wrk(`${server.url}/dashboard/billing`, [`Cookie: ${cookie}`, `Host: ${host}`], {
    connections: 1,
    threads: 1,
  });
  delete alone.raw;
  const cpuBefore = server.pid ? await cpuSeconds(server.pid) : null;
  const dashRun = wrk(`${server.url}/dashboard/billing`, [`Cookie: ${cookie}`, `Host: ${host}`]);
  const visitors = await probeVisitors(server.url, dashRun);
  const dash = await dashRun;
  const cpuAfter = cpuBefore ? await cpuSeconds(server.pid) : null;
  // CPU per answered request: what one dashboard page costs the server and PostgreSQL (0 on PGlite,
  // which runs inside the server process).
  const cpuMsPerRequest = cpuAfter
    ? {
        server: ((cpuAfter.server - cpuBefore.server) * 1000) / dash.requests,
        postgres: ((cpuAfter.postgres - cpuBefore.postgres) * 1000) / dash.requests,
      }
    : null;
  results.dashboard = {
    page: "/dashboard/billing",
    trialStart: trialStatus,
    cpuMsPerRequest,
    ...dash,
    oneConnection: alone,
    visitorsMeanwhile: visitors,
  };

  // The same page and load from a second tool (see bench/lib/ab.js), when it is installed.
  if (abBin) {
    results.dashboard.ab = await ab(
      `${server.url.replace("//localhost", "//127.0.0.1")}/dashboard/billing`,
      [`Cookie: ${cookie}`, `Host: ${host}`],
      {
        connections: CONNECTIONS,
        seconds: SECONDS,
      },
    );
  }

  const after = await loadAverage();
  results.loadAverage = { before: before.loadavg, after: after.loadavg, cpus: after.cpus };

  console.log("");
  console.log(
    table(
      [
        "page",
        "bytes",
        "ours req/s",
        "nginx req/s",
        "ours/nginx",
        "target",
        "ours p50/p99 ms",
        "nginx p50/p99 ms",
        "bare Node req/s",
        "ours/bare Node",
        "ours non-2xx/timeouts",
      ],
      results.pages.map((r) => [
        r.page,
        r.bytes,
        f(r.ours.rps),
        f(r.nginx.rps),
        `${f(r.ratio * 100)}%`,
        r.ratio >= NGINX_TARGET ? "met (>=25%)" : "MISSED (<25%)",
        `${f(r.ours.p50)}/${f(r.ours.p99)}`,
        `${f(r.nginx.p50, 2)}/${f(r.nginx.p99, 2)}`,
        f(r.bareNode.rps),
        `${f((r.ours.rps / r.bareNode.rps) * 100)}%`,
        `${r.ours.non2xx3xx}/${r.ours.socket?.timeout ?? 0}${r.ours.socketErrors - (r.ours.socket?.timeout ?? 0) ? ` (+${r.ours.socketErrors - r.ours.socket.timeout} socket)` : ""}`,
      ]),
    ),
  );
  console.log("");
  const d = results.dashboard;
  console.log(
    table(
      ["signed-in page", "req/s", "p50 ms", "p75 ms", "p90 ms", "p99 ms", "target", "non-2xx/timeouts"],
      [
        [
          d.page,
          f(d.rps),
          f(d.p50),
          f(d.p75),
          f(d.p90),
          f(d.p99),
          d.p99 <= DASHBOARD_P99_TARGET_MS ? "met (p99<=50ms)" : "MISSED (p99>50ms)",
          `${d.non2xx3xx}/${d.socket?.timeout ?? 0}${d.socketErrors - (d.socket?.timeout ?? 0) ? ` (+${d.socketErrors - d.socket.timeout} socket)` : ""}`,
        ],
      ],
    ),
  );
  if (d.cpuMsPerRequest) {
    console.log(
      `CPU per dashboard request: server ${f(d.cpuMsPerRequest.server, 2)} ms, PostgreSQL ${f(d.cpuMsPerRequest.postgres, 2)} ms (/proc)`,
    );
  }
  console.log(
    `One connection (nobody queued ahead): ${f(d.oneConnection.rps)} req/s, p50 ${f(d.oneConnection.p50)} ms, p99 ${f(d.oneConnection.p99)} ms, ` +
      `non-2xx/timeouts ${d.oneConnection.non2xx3xx}/${d.oneConnection.socket?.timeout ?? 0}`,
  );
  if (d.ab) {
    console.log(
      `Cross-check with ab -k -c ${CONNECTIONS} for ${SECONDS} s: ${f(d.ab.rps)} req/s, p50 ${d.ab.p50} ms, p99 ${d.ab.p99} ms, ` +
        `max ${d.ab.max} ms, non-2xx ${d.ab.non2xx} (${d.ab.p99 <= DASHBOARD_P99_TARGET_MS ? "p99 target met" : "p99 target MISSED"} by ab's count)`,
    );
  } else console.log("Cross-check with ab skipped: ab not found (Debian: apt-get install -y apache2-utils).");
  const v = d.visitorsMeanwhile;
  console.log(
    `Meanwhile, \`/\` (page-cache hit) on a new connection every 50 ms: ${v.n} answered, p50 ${f(v.p50)} ms, ` +
      `p99 ${f(v.p99)} ms, max ${f(v.max)} ms, failed ${v.failed}`,
  );
  console.log(
    "\nwrk measures latency of answered requests only; timeouts (no answer within 2 s) are counted apart. " +
      "Little's law: 64 connections at R req/s wait about 64/R s each.",
  );
  console.log(`\nload average before ${before.loadavg.join(" ")}, after ${after.loadavg.join(" ")}`);
  const out = process.env.THROUGHPUT_OUT || "/tmp/bench-results/throughput.json";
  mkdirSync(path.dirname(out), { recursive: true });
  for (const r of results.pages) {
    delete r.ours.raw;
    delete r.nginx.raw;
    delete r.bareNode.raw;
  }
  delete results.dashboard.raw;
  writeFileSync(
    out,
    JSON.stringify(
      { at: new Date().toISOString(), seconds: SECONDS, connections: CONNECTIONS, threads: THREADS, ...results },
      null,
      2,
    ),
  );
  console.log(`wrote ${out}`);
} finally {
  await nginx?.stop();
  await bare?.stop();
  await server.stop();
  server.removeData?.();
  rmSync(dir, { recursive: true, force: true });
}
