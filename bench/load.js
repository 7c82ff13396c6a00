// Load test: anonymous visitors, sign-ups with trial starts, checkouts
// and callback-form leads, all at once, against the production server; prints per-route-group
// latency, throughput, errors (5xx apart) and a zero-lost-writes check (every acknowledged trial,
// payment and lead stored; no lead stored twice; no order fulfilled twice), and writes the figures
// as JSON.
//
//   node bench/load.js                        builds if needed (BUILD_DIR), starts `node server.js`
//                                             on a throw-away PGlite folder, runs 60 s
//   LOAD_SECONDS=20 node bench/load.js        shorter run
//   BENCH_URL=http://127.0.0.1:3000 node bench/load.js
//                                             an already running server (its PUBLIC_SITE_URL origin
//                                             must be given as BENCH_ORIGIN when it differs); the
//                                             lost-writes check then re-posts start-trial (409 = kept)
//
// Knobs: LOAD_VISITORS (200), LOAD_SIGNUPS (50), LOAD_CHECKOUTS (20), LOAD_LEADS (20) concurrent
// simulated users (twice the issue's peak: LOAD_VISITORS=400 LOAD_SIGNUPS=100 LOAD_CHECKOUTS=40 LOAD_LEADS=40);
// LOAD_THINK_MS (500): mean pause between one user's requests (uniform 0..2x; 0 = closed loop,
// i.e. a saturation test); LOAD_DASHBOARD_PAGES (8): dashboard pages a new user views before the
// worker starts over with another new user; BENCH_ACCEPT_ENCODING ("gzip, br"; "identity" asks
// for uncompressed answers); LOAD_OUT (/tmp/bench-results/load.json;
// bench/out/load.json is a gitignored place in the repo).
//
// Every simulated user has a loopback source address of its own (127.x.y.z), so the per-IP auth
// rate limits (sign-up 5/min) apply per user, as they would in production.
// The client runs on the same machine as the server: both share its cores.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  BUILD_DIR,
  cookieHeader,
  fmt,
  freshIp,
  loadAverage,
  request,
  signUpVerified,
  sleep,
  startServer,
  summarise,
  table,
  uniqueEmail,
  watchAcceptQueue,
} from "./lib/common.js";

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const VISITORS = Number(process.env.LOAD_VISITORS ?? 200);
const SIGNUPS = Number(process.env.LOAD_SIGNUPS ?? 50);
const CHECKOUTS = Number(process.env.LOAD_CHECKOUTS ?? 20);
const LEADS = Number(process.env.LOAD_LEADS ?? 20);
const THINK_MS = Number(process.env.LOAD_THINK_MS ?? 500);
const DASHBOARD_PAGES = Number(process.env.LOAD_DASHBOARD_PAGES ?? 8);
// bench/results/ is not gitignored (bench/out/ is): by default the JSON goes to /tmp.
const OUT = path.resolve(process.env.LOAD_OUT || "/tmp/bench-results/load.json");

const QUERIES = ["ai", "chat", "health", "invoice", "retail", "bot", "schedul", "zzz-no-match", "Real Estate", "sales"];
const INDUSTRY_FILTERS = ["Financial Services", "Retail & E-commerce", "Education & Training", "Telecommunications"];
const pick = (list) => list[Math.floor(Math.random() * list.length)];

/** An anonymous page and its route group. */
function anonymousPage() {
  const r = Math.random();
  if (r < 0.2) return ["/", "GET /"];
  if (r < 0.3) return ["/apps", "GET /apps"];
  if (r < 0.4) {
    const p = new URLSearchParams();
    const v = Math.random();
    if (v < 0.4) p.set("industry", pick(INDUSTRY_FILTERS));
    else if (v < 0.6) p.set("tab", pick(["express", "standard", "monthly"]));
    else if (v < 0.8) p.set("view", "list");
    else p.set("show", "24");
    return [`/apps?${p}`, "GET /apps?filters"];
  }
  if (r < 0.55) return [`/apps?q=${encodeURIComponent(pick(QUERIES))}`, "GET /apps?q="];
  if (r < 0.7) return ["/packages", "GET /packages"];
  if (r < 0.8) return ["/goals", "GET /goals"];
  if (r < 0.9) return ["/how-it-works", "GET /how-it-works"];
  return ["/live-training", "GET /live-training"];
}

const DASHBOARD = ["", "/billing", "/addons", "/analytics", "/profile", "/settings", "/support", "/onboarding", "/scaling"];

// ---- bookkeeping -------------------------------------------------------------------------------
const groups = new Map(); // group -> { times: [], statuses: Map }
const errors = new Map(); // "group status" -> count
const errorSamples = [];
let total = 0;
/** The slowest answers (other than sign-up, slow by design), with when they were asked, to tell a burst from a steady state. */
const slowest = [];
let runStarted = 0;

function record(group, res, expected = (s) => s >= 200 && s < 400) {
  total += 1;
  if (group !== "auth: sign-up" && (slowest.length < 8 || res.ms > slowest[slowest.length - 1].ms)) {
    slowest.push({ group, ms: res.ms, askedAt: (performance.now() - res.ms - runStarted) / 1000 });
    slowest.sort((a, b) => b.ms - a.ms);
    slowest.length = Math.min(slowest.length, 8);
  }
  let g = groups.get(group);
  if (!g) groups.set(group, (g = { times: [], statuses: new Map() }));
  g.times.push(res.ms);
  g.statuses.set(res.status, (g.statuses.get(res.status) ?? 0) + 1);
  if (!expected(res.status)) {
    const key = `${group} ${res.status}${res.error ? ` ${res.error}` : ""}`;
    errors.set(key, (errors.get(key) ?? 0) + 1);
    if (errorSamples.length < 20) {
      let body = "";
      try {
        body = res.text.slice(0, 300);
      } catch {
        /* undecodable */
      }
      errorSamples.push({ group, status: res.status, error: res.error, body });
    }
  }
}

const think = () => (THINK_MS > 0 ? sleep(Math.random() * 2 * THINK_MS) : Promise.resolve());

// ---- the run -------------------------------------------------------------------------------------
const own = !process.env.BENCH_URL;
const server = own
  ? await startServer()
  : { url: process.env.BENCH_URL, origin: process.env.BENCH_ORIGIN || process.env.BENCH_URL, stop: async () => {} };
const host = new URL(server.origin).host;
const before = await loadAverage();
const acceptQueue = watchAcceptQueue(Number(new URL(server.url).port));
console.log(
  `bench/load.js against ${server.url} (${new Date().toISOString()}), ${SECONDS} s: ${VISITORS} visitors, ` +
    `${SIGNUPS} sign-up users, ${CHECKOUTS} checkout users, ${LEADS} lead submitters, think ${THINK_MS} ms, ` +
    `Accept-Encoding ${process.env.BENCH_ACCEPT_ENCODING || "gzip, br"}; load average ${before.loadavg.join(" ")} (${before.cpus} cores)`,
);

const started = performance.now();
runStarted = started;
const deadline = started + SECONDS * 1000;
const running = () => performance.now() < deadline;

const trials = []; // { email, cookie, ip }: start-trial answered 302
const trialFailures = [];
const paid = []; // { email, sessionId }: payment answered 302 to the success page
const signupFailures = [];
let signupsDone = 0;
const leadsAcknowledged = []; // emails whose callback request answered 200

async function visitor() {
  const ip = freshIp();
  await sleep(Math.random() * 1000); // stagger the start
  while (running()) {
    const [p, group] = anonymousPage();
    record(group, await request(server.url, { path: p, ip, host, headers: { accept: "text/html" } }));
    await think();
  }
}

async function newUser(ip, flow) {
  try {
    const u = await signUpVerified(server, { ip, email: uniqueEmail(flow), record });
    signupsDone += 1;
    return u;
  } catch (error) {
    signupFailures.push(String(error?.message ?? error));
    return null;
  }
}

async function signupUser(index) {
  await sleep(index * 50 + Math.random() * 500);
  while (running()) {
    const ip = freshIp();
    const user = await newUser(ip, "trial");
    if (!user) {
      await sleep(1000);
      continue;
    }
    let cookie = user.cookie;
    const get = async (p, group) => {
      const res = await request(server.url, { path: p, ip, host, headers: { cookie, accept: "text/html" } });
      record(group, res);
      cookie = cookieHeader(res.setCookies, cookie);
      return res;
    };
    await get("/dashboard", "GET /dashboard*");
    await think();
    const start = await request(server.url, {
      method: "POST",
      path: "/dashboard",
      ip,
      host,
      headers: { cookie, origin: server.origin, accept: "text/html" },
      body: new URLSearchParams({ intent: "start-trial", plan: "starter" }),
    });
    record("POST /dashboard start-trial", start);
    if (start.status === 302 && /trial-started/.test(String(start.headers.location))) {
      trials.push({ email: user.email, cookie, ip });
    } else {
      trialFailures.push({ email: user.email, status: start.status, error: start.error });
    }
    for (let i = 0; i < DASHBOARD_PAGES && running(); i++) {
      await think();
      await get(`/dashboard${pick(DASHBOARD)}`, "GET /dashboard*");
    }
  }
}

/**
 * A real buyer orders a few apps, not one a second for a minute (checkout allows 10 a minute per
 * account: docs/decisions): each checkout user is a series of new customers, each from an address of
 * its own, each buying PURCHASES_PER_BUYER apps.
 */
const PURCHASES_PER_BUYER = 5;

async function checkoutUser(index) {
  await sleep(index * 100 + Math.random() * 500);
  while (running()) {
    const ip = freshIp();
    let user = null;
    while (!user && running()) {
      user = await newUser(ip, "buyer");
      if (!user) await sleep(1000);
    }
    if (!user) return;
    await buyApps(user, ip);
  }
}

async function buyApps(user, ip) {
  const cookie = user.cookie;
  for (let bought = 0; bought < PURCHASES_PER_BUYER && running(); bought++) {
    await think();
    const appId = 1 + Math.floor(Math.random() * 181);
    const co = await request(server.url, {
      method: "POST",
      path: "/api/checkout",
      ip,
      host,
      headers: { cookie, origin: server.origin, accept: "application/json" },
      body: { kind: "app", appId, tab: "base" },
    });
    record("POST /api/checkout", co);
    if (co.status !== 200) continue;
    const url = new URL(JSON.parse(co.text).url, server.origin);
    const sessionId = decodeURIComponent(url.pathname.split("/").pop());
    record(
      "GET /checkout/local/:id",
      await request(server.url, { path: url.pathname, ip, host, headers: { cookie, accept: "text/html" } }),
    );
    await think();
    const pay = await request(server.url, {
      method: "POST",
      path: url.pathname,
      ip,
      host,
      headers: { cookie, origin: server.origin, accept: "text/html" },
      body: new URLSearchParams({ card: "4242424242424242", expiry: "12/40", cvc: "123" }),
    });
    record("POST /checkout/local/:id pay", pay);
    if (pay.status === 302) paid.push({ email: user.email, sessionId });
  }
}

/** A visitor who reads a page, then asks for a callback (the public lead form), again and again. */
async function leadUser(index) {
  await sleep(index * 100 + Math.random() * 500);
  let n = 0;
  while (running()) {
    // Each submission from an address of its own: the form allows 5 per address per 10 minutes.
    const ip = freshIp();
    const [p, group] = anonymousPage();
    record(group, await request(server.url, { path: p, ip, host, headers: { accept: "text/html" } }));
    await think();
    const email = uniqueEmail(`lead${index}-${n++}`);
    const res = await request(server.url, {
      method: "POST",
      path: "/api/callback",
      ip,
      host,
      headers: { origin: server.origin, accept: "application/json" },
      body: { firstName: "Load", email, phone: "+15550001234" },
    });
    record("POST /api/callback", res);
    if (res.status === 200) leadsAcknowledged.push(email);
    await think();
  }
}

await Promise.all([
  ...Array.from({ length: VISITORS }, () => visitor()),
  ...Array.from({ length: LEADS }, (_, i) => leadUser(i)),
  ...Array.from({ length: SIGNUPS }, (_, i) => signupUser(i)),
  ...Array.from({ length: CHECKOUTS }, (_, i) => checkoutUser(i)),
]);
const elapsed = (performance.now() - started) / 1000;
const acceptQueueMax = acceptQueue.stop();
const after = await loadAverage();

// ---- zero lost writes ------------------------------------------------------------------------
const lost = {
  method: "",
  trialsChecked: 0,
  trialsMissing: [],
  ordersChecked: 0,
  ordersNotPaid: [],
  ordersFulfilledTwice: [],
  leadsChecked: 0,
  leadsMissing: [],
  leadsStoredTwice: [],
};
if (own) {
  // Stop the server (it closes PGlite cleanly), then open its database through the same bundle: the
  // data folder, or the PostgreSQL database it ran on (BENCH_DATABASE_URL).
  const exit = await server.stop();
  const store = process.env.BENCH_DATABASE_URL ? "PostgreSQL database" : "data folder";
  lost.method = `server stopped (${exit.signal ?? `exit ${exit.code}`}); ${store} opened with the bundle's boot()/database()`;
  Object.assign(process.env, {
    NODE_ENV: "production",
    DATA_DIR: server.dataDir,
    DATABASE_URL: process.env.BENCH_DATABASE_URL || "",
    PUBLIC_SITE_URL: server.origin,
    LOG_LEVEL: "error",
  });
  const mod = await import(pathToFileURL(path.join(BUILD_DIR, "server/index.js")).href);
  await mod.boot();
  const rows = async (q) => (await mod.database().db.execute(q)).rows;
  const started = new Set(
    (
      await rows(
        `select lower(u.email) as email from "user" u join trial_access t on t.user_id = u.id where t.trial_started and t.selected_plan = 'starter'`,
      )
    ).map((r) => r.email),
  );
  lost.trialsChecked = trials.length;
  lost.trialsMissing = trials.filter((t) => !started.has(t.email.toLowerCase())).map((t) => t.email);
  const paidIds = new Set(
    (await rows(`select provider_session_id from orders where status = 'paid'`)).map((r) => r.provider_session_id),
  );
  lost.ordersChecked = paid.length;
  lost.ordersNotPaid = paid.filter((p) => !paidIds.has(p.sessionId)).map((p) => p.sessionId);
  // Fulfilment is one payment event per paid order, whatever raced: a double charge is a lost write too.
  lost.ordersFulfilledTwice = (
    await rows(
      `select o.provider_session_id as id, count(p.order_id)::int as n from orders o
         left join payment_events p on p.order_id = o.id and p.kind = 'payment' where o.status = 'paid'
        group by o.provider_session_id having count(p.order_id) <> 1`,
    )
  ).map((r) => `${r.id} (${r.n} payment events)`);
  const storedLeads = new Map(
    (await rows(`select lower(email) as email, count(*)::int as n from leads group by 1`)).map((r) => [r.email, r.n]),
  );
  lost.leadsChecked = leadsAcknowledged.length;
  lost.leadsMissing = leadsAcknowledged.filter((e) => !storedLeads.has(e.toLowerCase()));
  lost.leadsStoredTwice = leadsAcknowledged.filter((e) => (storedLeads.get(e.toLowerCase()) ?? 0) > 1);
  const [counts] = await rows(
    `select (select count(*) from "user")::int as users, (select count(*) from orders)::int as orders,
            (select count(*) from orders where status = 'paid')::int as paid_orders,
            (select count(*) from trial_access where trial_started)::int as trials,
            (select count(*) from leads)::int as leads`,
  );
  lost.databaseCounts = counts;
  await mod.shutdown();
  server.removeData();
} else {
  // No database access: a second start-trial must be refused with 409 (trial already used).
  lost.method = "second start-trial per user must answer 409 (BENCH_URL mode; orders and leads not checked)";
  lost.trialsChecked = trials.length;
  for (const t of trials) {
    const res = await request(server.url, {
      method: "POST",
      path: "/dashboard",
      ip: t.ip,
      host,
      headers: { cookie: t.cookie, origin: server.origin },
      body: new URLSearchParams({ intent: "start-trial", plan: "starter" }),
    });
    if (res.status !== 409) lost.trialsMissing.push(`${t.email} (${res.status})`);
  }
}

// ---- report -------------------------------------------------------------------------------------
const groupRows = [...groups.entries()]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([name, g]) => {
    const s = summarise(g.times);
    const bad = [...g.statuses.entries()].filter(([st]) => !(st >= 200 && st < 400)).reduce((a, [, n]) => a + n, 0);
    return { name, ...s, rps: g.times.length / elapsed, errors: bad, statuses: Object.fromEntries(g.statuses) };
  });
const allTimes = summarise([...groups.values()].flatMap((g) => g.times));
const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
const serverErrors = [...groups.values()].reduce(
  (a, g) => a + [...g.statuses.entries()].filter(([st]) => st >= 500).reduce((x, [, n]) => x + n, 0),
  0,
);

console.log("");
console.log(
  table(
    ["route group", "requests", "req/s", "errors", "p50 ms", "p95 ms", "p99 ms", "max ms"],
    [
      ...groupRows.map((g) => [g.name, g.n, g.rps.toFixed(1), g.errors, fmt(g.p50), fmt(g.p95), fmt(g.p99), fmt(g.max)]),
      [
        "ALL",
        total,
        (total / elapsed).toFixed(1),
        errorCount,
        fmt(allTimes.p50),
        fmt(allTimes.p95),
        fmt(allTimes.p99),
        fmt(allTimes.max),
      ],
    ],
  ),
);
console.log("");
console.log(
  `elapsed ${elapsed.toFixed(1)} s, ${total} requests, ${(total / elapsed).toFixed(1)} req/s, ${errorCount} errors ` +
    `(${serverErrors} answered 5xx)`,
);
for (const [k, n] of errors) console.log(`  error: ${k} x${n}`);
console.log(
  `accept queue: at most ${acceptQueueMax ?? "(not measured)"} connections waiting to be accepted (sampled every 0.5 s)`,
);
console.log(
  `slowest answers but sign-up's: ${slowest.map((r) => `${r.group} asked at ${r.askedAt.toFixed(1)} s took ${fmt(r.ms)} ms`).join("; ")}`,
);
console.log(
  `users: ${signupsDone} signed up and verified (${signupFailures.length} failed), ${trials.length} trials started ` +
    `(${trialFailures.length} refused), ${paid.length} checkouts paid, ${leadsAcknowledged.length} leads acknowledged`,
);
if (signupFailures.length) console.log(`  sign-up failures (first 5): ${signupFailures.slice(0, 5).join(" | ")}`);
const lostCount = lost.trialsMissing.length + lost.ordersNotPaid.length + lost.leadsMissing.length;
const twiceCount = lost.ordersFulfilledTwice.length + lost.leadsStoredTwice.length;
console.log(
  `lost writes: ${lostCount === 0 ? "none" : lostCount} - ${lost.trialsChecked} acknowledged trial starts checked ` +
    `(${lost.trialsMissing.length} missing), ${lost.ordersChecked} acknowledged payments checked (${lost.ordersNotPaid.length} not paid), ` +
    `${lost.leadsChecked} acknowledged leads checked (${lost.leadsMissing.length} missing); ${lost.method}`,
);
console.log(
  `written twice: ${twiceCount === 0 ? "none" : twiceCount} - ${lost.ordersFulfilledTwice.length} paid orders without exactly one payment event, ` +
    `${lost.leadsStoredTwice.length} acknowledged leads stored more than once`,
);
if (lost.databaseCounts) console.log(`  database: ${JSON.stringify(lost.databaseCounts)}`);
console.log(`load average before ${before.loadavg.join(" ")}, after ${after.loadavg.join(" ")} (${after.cpus} cores)`);

mkdirSync(path.dirname(OUT), { recursive: true });
writeFileSync(
  OUT,
  JSON.stringify(
    {
      at: new Date().toISOString(),
      target: server.url,
      config: {
        acceptEncoding: process.env.BENCH_ACCEPT_ENCODING || "gzip, br",
        seconds: SECONDS,
        visitors: VISITORS,
        signups: SIGNUPS,
        checkouts: CHECKOUTS,
        leads: LEADS,
        thinkMs: THINK_MS,
        dashboardPages: DASHBOARD_PAGES,
      },
      loadAverage: { before: before.loadavg, after: after.loadavg, cpus: after.cpus },
      elapsedSeconds: elapsed,
      totalRequests: total,
      requestsPerSecond: total / elapsed,
      acceptQueueMax,
      slowest,
      errors: Object.fromEntries(errors),
      serverErrors,
      errorSamples,
      latencyMs: { all: allTimes, groups: groupRows },
      users: {
        signedUp: signupsDone,
        signupFailures: signupFailures.length,
        trialsStarted: trials.length,
        trialStartsRefused: trialFailures,
        checkoutsPaid: paid.length,
        leadsAcknowledged: leadsAcknowledged.length,
      },
      lostWrites: lost,
    },
    null,
    2,
  ),
);
console.log(`wrote ${OUT}`);
if (!own) await server.stop();
process.exit(lostCount === 0 && twiceCount === 0 && serverErrors === 0 ? 0 : 1);
