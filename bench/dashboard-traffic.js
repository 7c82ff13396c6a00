// Signed-in dashboard pages under traffic that looks like people: many verified accounts, every
// request a different account than the one before it, each account walking through its own
// dashboard pages (overview, billing, add-ons, scaling, onboarding), so a request is either another
// user's or a page that user has not asked for within the last few hundred requests.
//
//   node bench/dashboard-traffic.js           builds if needed (BUILD_DIR), starts `node server.js`
//                                             on a throw-away PGlite folder
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/emptydb node bench/dashboard-traffic.js
//                                             the same on PostgreSQL (DATABASE_URL is read too when
//                                             BENCH_DATABASE_URL is not set); the server migrates it
//   TRAFFIC_ACCOUNTS=20 TRAFFIC_SECONDS=4 TRAFFIC_CLOSED_SECONDS=2 node bench/dashboard-traffic.js
//                                             a shorter run (the defaults take about 3 minutes on
//                                             2 cores, a minute of it signing up the accounts)
//
// What it measures, in order:
// 0. A warm-up, TRAFFIC_WARM_SECONDS (5) on 2 connections, not counted.
// 1. Open loop (requests sent at a fixed arrival rate, whether or not earlier ones were answered;
//    latency counted from when a request was due, so a slow server cannot hide its queue): a step
//    search from TRAFFIC_START_RATE (10/s), times 1.5 a step, each step TRAFFIC_STEP_SECONDS (4) but
//    at least TRAFFIC_MIN_STEP_REQUESTS (100) requests, until p99 is over TRAFFIC_P99_MS (50) or more
//    than 1% fail; then two bisections between the last rate under it and the first over. The
//    highest rate under it is "the rate where p99 crosses".
// 2. That rate's 50% and 80%, TRAFFIC_SECONDS (8) each (or the step minimum): answered req/s, p50,
//    p99, and the CPU the server (and PostgreSQL) spent per request.
// 3. Closed loop at fixed concurrency, TRAFFIC_CONCURRENCY (1,4,16) workers for
//    TRAFFIC_CLOSED_SECONDS (4) each: every worker sends its next request when its last is answered.
// 4. A side figure only: one account refreshing /dashboard/billing from TRAFFIC_HAMMER_CONNECTIONS
//    (16) connections, the shape earlier dashboard benchmarks measured and no real user makes.
//
// 5. CPU a request: TRAFFIC_CPU_REQUESTS (300) many-account requests one after the other on one
//    connection; the server's CPU over them, less what the idle server spent over as long just
//    before (pg-boss polling, timers), divided by the requests. The figure to compare builds by:
//    on a shared host, run both builds back to back (A B A B) and compare those.
// TRAFFIC_PHASES (open,closed,hammer,cpu) picks the parts to run, e.g. TRAFFIC_PHASES=cpu.
//
// Also reported: the time from starting `node server.js` to its first healthy /healthz, the server's
// CPU per request apart from PostgreSQL's (PostgreSQL's is every postgres process on the host,
// other databases' work included), and the server's resident memory (RSS) after the runs.
// TRAFFIC_PAGES (comma-separated paths) replaces the five dashboard pages, e.g.
// TRAFFIC_PAGES='/apps?q=invoice,/apps?q=crm' for the catalogue search as a signed-in visitor.
//
// Accounts: TRAFFIC_ACCOUNTS (100), each signed up through the API, verified through the dev
// mailbox and with its trial started (bench/lib/common.js signedInWithTrial), each with a loopback
// source address of its own. Only 200 answers count as answered; any other status is a failure.
// The client runs on the same machine as the server: both share its cores.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import {
  cpuSeconds,
  DASHBOARD_PAGES,
  fmt,
  loadAverage,
  manyAccountsTraffic,
  request,
  sleep,
  startServer,
  summarise,
  table,
  trialAccounts,
} from "./lib/common.js";

if (process.env.DATABASE_URL && !process.env.BENCH_DATABASE_URL) process.env.BENCH_DATABASE_URL = process.env.DATABASE_URL;

const num = (name, fallback) => Number(process.env[name] ?? fallback);
const ACCOUNTS = num("TRAFFIC_ACCOUNTS", 100);
const START_RATE = num("TRAFFIC_START_RATE", 10);
const STEP_SECONDS = num("TRAFFIC_STEP_SECONDS", 4);
const HOLD_SECONDS = num("TRAFFIC_SECONDS", 8);
const CLOSED_SECONDS = num("TRAFFIC_CLOSED_SECONDS", 4);
const P99_LIMIT_MS = num("TRAFFIC_P99_MS", 50);
const CONCURRENCY = (process.env.TRAFFIC_CONCURRENCY || "1,4,16").split(",").map(Number);
const WARM_SECONDS = num("TRAFFIC_WARM_SECONDS", 5);
const HAMMER_CONNECTIONS = num("TRAFFIC_HAMMER_CONNECTIONS", 16);
const CPU_REQUESTS = num("TRAFFIC_CPU_REQUESTS", 300);
const PHASES = new Set((process.env.TRAFFIC_PHASES || "open,closed,hammer,cpu").split(","));
const OUT = path.resolve(process.env.TRAFFIC_OUT || "/tmp/bench-results/dashboard-traffic.json");
/** Requests in flight beyond which an open-loop step stops sending (they count as failed). */
const MAX_IN_FLIGHT = 2000;
const STEP_FACTOR = 1.5;
/** Requests an open-loop step sends at least (it runs longer at low rates): a p99 needs samples. */
const MIN_STEP_REQUESTS = num("TRAFFIC_MIN_STEP_REQUESTS", 100);
const stepSeconds = (rate) => Math.min(5 * STEP_SECONDS, Math.max(STEP_SECONDS, MIN_STEP_REQUESTS / rate));
/** The search does not go below this rate: under it the server is idle, and the machine is measured. */
const MIN_RATE = START_RATE / 4;

const PAGES = process.env.TRAFFIC_PAGES ? process.env.TRAFFIC_PAGES.split(",") : DASHBOARD_PAGES;

async function get(server, visit, since) {
  const res = await request(server.url, {
    path: visit.path,
    ip: visit.account.ip,
    host: visit.account.host,
    headers: { cookie: visit.account.cookie },
    timeoutMs: 30_000,
  });
  return { ms: performance.now() - since, status: res.status, hit: res.headers["x-page-cache"] === "hit", at: performance.now() };
}

/** Figures of one run: answered req/s, latency of every request (failures included), failures by status. */
function figures(results, started, notSent, cpu, seconds = 0) {
  const ended = Math.max(started + seconds * 1000, ...results.map((r) => r.at));
  const ok = results.filter((r) => r.status === 200);
  const failures = {};
  for (const r of results) if (r.status !== 200) failures[r.status] = (failures[r.status] ?? 0) + 1;
  if (notSent) failures["not sent"] = notSent;
  const failed = results.length - ok.length + notSent;
  const s = summarise(results.map((r) => r.ms));
  return {
    sent: results.length,
    answered: ok.length,
    failed,
    failures,
    rps: ok.length / ((ended - started) / 1000),
    p50: s.p50,
    p99: s.p99,
    max: s.max,
    hits: results.filter((r) => r.hit).length,
    // Other work on the machine moves these figures: each run says how busy it was.
    load: loadavg()[0],
    cpuMsPerRequest: cpu && ok.length ? ((cpu.server + cpu.postgres) * 1000) / ok.length : null,
    serverCpuMsPerRequest: cpu && ok.length ? (cpu.server * 1000) / ok.length : null,
  };
}

const serverCpu = (server) => cpuSeconds(server.pid);
// A postgres process that exits takes its CPU time with it: PostgreSQL's share never goes below 0.
const cpuSince = (before, after) =>
  before && after ? { server: after.server - before.server, postgres: Math.max(0, after.postgres - before.postgres) } : null;

/** Sequential requests on one connection; the server's CPU a request, less its idle CPU over as long. */
async function cpuPerRequest(server, traffic, n) {
  const idleFrom = await serverCpu(server);
  const idleStarted = performance.now();
  await sleep(3000);
  const idle = cpuSince(idleFrom, await serverCpu(server));
  const idleMs = performance.now() - idleStarted;
  const before = await serverCpu(server);
  const started = performance.now();
  let ok = 0;
  for (let i = 0; i < n; i++) if ((await get(server, traffic.next(), performance.now())).status === 200) ok++;
  const spent = cpuSince(before, await serverCpu(server));
  const elapsed = performance.now() - started;
  if (!spent || !idle || ok === 0) return null;
  const idleServer = (idle.server * elapsed) / idleMs;
  return {
    requests: n,
    answered: ok,
    seconds: elapsed / 1000,
    idleServerMsPerSecond: (idle.server * 1000 * 1000) / idleMs,
    serverMsPerRequest: ((spent.server - idleServer) * 1000) / ok,
    serverAndPostgresMsPerRequest: ((spent.server - idleServer + spent.postgres) * 1000) / ok,
    load: loadavg()[0],
  };
}

/** Resident memory of the server process, in MB (Linux; null elsewhere). */
function rssMb(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : null;
  } catch {
    return null;
  }
}

/** Sends `rate` requests a second for `seconds`, on schedule, and waits for every answer. */
async function openLoop(server, traffic, rate, seconds) {
  const cpuBefore = await serverCpu(server);
  const interval = 1000 / rate;
  const total = Math.max(1, Math.round(rate * seconds));
  const started = performance.now() + 5;
  const results = [];
  const inFlight = [];
  let outstanding = 0;
  let notSent = 0;
  for (let i = 0; i < total; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait >= 1) await sleep(wait);
    if (outstanding >= MAX_IN_FLIGHT) {
      notSent++;
      continue;
    }
    outstanding++;
    inFlight.push(
      get(server, traffic.next(), due).then((r) => {
        outstanding--;
        results.push(r);
      }),
    );
  }
  await Promise.all(inFlight);
  const cpuAfter = await serverCpu(server);
  return { rate, ...figures(results, started, notSent, cpuSince(cpuBefore, cpuAfter), seconds) };
}

/** `connections` workers, each sending its next request when its last is answered, for `seconds`. */
async function closedLoop(server, nextVisit, connections, seconds) {
  const cpuBefore = await serverCpu(server);
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const results = [];
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) results.push(await get(server, nextVisit(), performance.now()));
    }),
  );
  const cpuAfter = await serverCpu(server);
  return { connections, ...figures(results, started, 0, cpuSince(cpuBefore, cpuAfter)) };
}

const crossed = (r) => !(r.p99 <= P99_LIMIT_MS) || r.failed > 0.01 * (r.sent + (r.failures["not sent"] ?? 0));

function openRow(label, r) {
  return [label, r.rate.toFixed(1), r.rps.toFixed(1), fmt(r.p50), fmt(r.p99), fmt(r.max), r.failed, cpuOf(r), r.load.toFixed(1)];
}
/** Server CPU ms a request, then with PostgreSQL's added (PostgreSQL only). */
const cpuOf = (r) =>
  r.serverCpuMsPerRequest === null
    ? "-"
    : r.serverCpuMsPerRequest.toFixed(2) +
      (r.cpuMsPerRequest !== r.serverCpuMsPerRequest ? ` (${r.cpuMsPerRequest.toFixed(2)})` : "");
const CPU_HEADER = "CPU ms/req (+pg)";
const OPEN_HEADER = ["open loop", "sent/s", "answered/s", "p50 ms", "p99 ms", "max ms", "failed", CPU_HEADER, "load"];

async function main() {
  const engine = process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite";
  const startedAt = performance.now();
  const server = await startServer();
  const startMs = performance.now() - startedAt;
  const out = { engine, accounts: ACCOUNTS, pages: PAGES, p99LimitMs: P99_LIMIT_MS, startMs, machine: await loadAverage() };
  try {
    console.log(
      `bench/dashboard-traffic.js: ${server.url}, ${engine}, ${ACCOUNTS} accounts, load ${out.machine.loadavg.join(" ")} on ${out.machine.cpus} cores`,
    );
    console.log(`start to healthy: ${fmt(startMs)} ms; RSS at start ${fmt(rssMb(server.pid))} MB`);
    const seedStarted = performance.now();
    const accounts = await trialAccounts(server, ACCOUNTS);
    console.log(
      `${accounts.length} verified accounts with a trial in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s\n`,
    );
    const traffic = manyAccountsTraffic(accounts, PAGES);

    // Each page renders a few times before anything is measured: the server's first renders load
    // and compile code.
    const warm = await closedLoop(server, () => traffic.next(), 2, WARM_SECONDS);
    if (warm.answered === 0) throw new Error(`no dashboard page answered 200: ${JSON.stringify(warm.failures)}`);
    console.log(`warm-up: ${warm.answered} pages, p50 ${fmt(warm.p50)} ms on 2 connections`);

    let knee = 0;
    let bad = null;
    const steps = [];
    const held = [];
    const closed = [];
    let hammer = null;
    if (PHASES.has("open")) {
      // 1. Step search.
      let good = null;
      let rate = START_RATE;
      for (;;) {
        const r = await openLoop(server, traffic, rate, stepSeconds(rate));
        steps.push(r);
        console.log(`  step ${rate.toFixed(1)}/s: p99 ${fmt(r.p99)} ms, ${r.failed} failed, load ${r.load.toFixed(1)}`);
        await sleep(1000);
        if (crossed(r)) {
          bad = rate;
          if (good !== null || rate / 2 < MIN_RATE) break;
          rate /= 2;
        } else {
          good = rate;
          if (bad !== null) break;
          rate *= STEP_FACTOR;
        }
      }
      for (let k = 0; k < 2 && good !== null && bad !== null; k++) {
        const mid = (good + bad) / 2;
        const r = await openLoop(server, traffic, mid, stepSeconds(mid));
        steps.push(r);
        console.log(`  step ${mid.toFixed(1)}/s: p99 ${fmt(r.p99)} ms, ${r.failed} failed, load ${r.load.toFixed(1)}`);
        await sleep(1000);
        if (crossed(r)) bad = mid;
        else good = mid;
      }
      knee = good ?? 0;
      console.log(
        `\np99 crosses ${P99_LIMIT_MS} ms between ${knee.toFixed(1)} and ${bad?.toFixed(1) ?? "?"} requests/s (open loop)\n`,
      );
      console.log(
        table(
          OPEN_HEADER,
          steps.map((r) => openRow("step", r)),
        ),
      );

      // 2. Held at 50% and 80% of it.
      if (knee > 0) {
        for (const share of [0.5, 0.8]) {
          await sleep(1000);
          held.push({
            share,
            ...(await openLoop(server, traffic, knee * share, Math.max(HOLD_SECONDS, stepSeconds(knee * share)))),
          });
        }
        console.log(`\nat 50% and 80% of ${knee.toFixed(1)}/s, ${HOLD_SECONDS} s each`);
        console.log(
          table(
            OPEN_HEADER,
            held.map((r) => openRow(`${r.share * 100}%`, r)),
          ),
        );
      }
    }

    // 3. Closed loop.
    if (PHASES.has("closed")) {
      for (const c of CONCURRENCY) {
        await sleep(1000);
        closed.push(await closedLoop(server, () => traffic.next(), c, CLOSED_SECONDS));
      }
      console.log(`\nclosed loop, ${CLOSED_SECONDS} s each`);
      console.log(
        table(
          ["connections", "answered/s", "p50 ms", "p99 ms", "max ms", "failed", CPU_HEADER, "load"],
          closed.map((r) => [
            r.connections,
            r.rps.toFixed(1),
            fmt(r.p50),
            fmt(r.p99),
            fmt(r.max),
            r.failed,
            cpuOf(r),
            r.load.toFixed(1),
          ]),
        ),
      );
    }

    // 4. Side figure: one account, one page.
    if (PHASES.has("hammer")) {
      await sleep(1000);
      const one = accounts[0];
      hammer = await closedLoop(server, () => ({ account: one, path: "/dashboard/billing" }), HAMMER_CONNECTIONS, CLOSED_SECONDS);
      console.log(
        `\nside figure, one account refreshing /dashboard/billing on ${HAMMER_CONNECTIONS} connections: ` +
          `${hammer.rps.toFixed(1)} req/s, p50 ${fmt(hammer.p50)} ms, p99 ${fmt(hammer.p99)} ms, ${hammer.failed} failed, ` +
          `${cpuOf(hammer)} ms CPU a request`,
      );
    }

    // 5. CPU a request, sequential.
    let cpu = null;
    if (PHASES.has("cpu")) {
      await sleep(1000);
      cpu = await cpuPerRequest(server, traffic, CPU_REQUESTS);
      if (cpu) {
        console.log(
          `\nCPU a request, ${cpu.answered} sequential requests in ${cpu.seconds.toFixed(1)} s: server ${cpu.serverMsPerRequest.toFixed(2)} ms` +
            (engine === "PostgreSQL" ? `, with PostgreSQL ${cpu.serverAndPostgresMsPerRequest.toFixed(2)} ms` : "") +
            ` (idle server: ${cpu.idleServerMsPerSecond.toFixed(1)} ms CPU a second, taken off), load ${cpu.load.toFixed(1)}`,
        );
      }
    }

    const rssAfter = rssMb(server.pid);
    console.log(`server RSS after the runs: ${fmt(rssAfter)} MB`);
    const { requests, firstViews } = traffic.counts();
    const hits = [...steps, ...held, ...closed, ...(hammer ? [hammer] : [])].reduce((n, r) => n + r.hits, 0);
    console.log(`\n${requests} many-account requests, ${firstViews} of them first views; page-cache hits in all runs: ${hits}`);
    Object.assign(out, {
      knee,
      crossedAt: bad,
      steps,
      held,
      closed,
      hammer,
      requests,
      firstViews,
      hits,
      cpu,
      rssAfterMb: rssAfter,
    });
    mkdirSync(path.dirname(OUT), { recursive: true });
    writeFileSync(OUT, JSON.stringify(out, null, 2));
    console.log(`figures: ${OUT}`);
  } finally {
    await server.stop();
    server.removeData();
  }
}

await main();
