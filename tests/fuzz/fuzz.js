// Bad-input fuzzer: every input is schema-checked, so none may cause a 5xx or a write. Drives the
// BUILT server in-process on a throw-away PGlite folder and sends every action and API route
// FUZZ_CASES invalid requests: malformed, oversize, wrong-typed and injection-laden bodies and query
// strings.
// Every answer must be < 500 and free of stack traces, and no invalid request may write anything
// (row counts of every user-data table are compared before and after each route). Page query
// strings are fuzzed too, with a fifth of the cases (each is a full render and GET never writes).
// A second, smaller phase sends well-formed requests whose free text is hostile (SQL, markup, NUL,
// lone surrogates): those may be stored, but must never produce a 5xx.
//
// Usage: npm run build && node tests/fuzz/fuzz.js        (what `npm test` runs: 80 cases a route)
//        npm run fuzz:full                               (1,000 cases a route)
// Environment: FUZZ_CASES (cases per route), FUZZ_SEED (default: a new random seed every run,
// printed first and with every failure: set it to replay a run), FUZZ_ROUTE (only the routes whose
// name contains this text, for a replay), BUILD_DIR, FUZZ_SHARDS.
// The routes are split over FUZZ_SHARDS processes (default: one per core, at most 2), each with its
// own in-process server and PGlite folder; each route's cases come from a generator seeded by the
// seed and the route's name, so a route gets the same cases whichever shard runs it, and with
// whichever FUZZ_ROUTE. One more process runs the server with Stripe configured (a local stand-in
// for its API) for the routes that only exist with it: the webhook, the billing portal and the
// Stripe side of the payment sync.
// Writes test-reports/fuzz.json ({ passed, failed, seed, routes }) for the `npm test` summary.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { randomInt } from "node:crypto";
import { availableParallelism } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Stripe } from "stripe";
import { SERVER_ENV, SERVER_NODE_FLAGS } from "../../app/server/process/processes.server.js";
import { newDataDir } from "../reliability/lib.js";
import { startFakeStripe } from "../support/fake-stripe.js";

// A bounded run in `npm test`, a new seed each time: over many runs the seeds cover what one long
// run would, and a failure names the seed that replays it. `--full` is `npm run fuzz:full`.
const FULL_CASES = 1000;
const CI_CASES = 80;
const CASES = Number(process.env.FUZZ_CASES || (process.argv.includes("--full") ? FULL_CASES : CI_CASES));
const HOSTILE_CASES = Math.max(20, Math.round(CASES / 20));
const SEED = Number(process.env.FUZZ_SEED || randomInt(1, 2 ** 31));
if (!Number.isSafeInteger(CASES) || CASES < 1) throw new Error(`FUZZ_CASES must be a positive integer, not ${CASES}`);
if (!Number.isSafeInteger(SEED)) throw new Error(`FUZZ_SEED must be an integer, not ${process.env.FUZZ_SEED}`);
/** Only the routes whose name contains this (replaying one route); the coverage check is then skipped. */
const ONLY = process.env.FUZZ_ROUTE ?? "";
const REPLAY = `FUZZ_SEED=${SEED} FUZZ_CASES=${CASES} node tests/fuzz/fuzz.js`;
const BUILD_DIR = path.resolve(process.env.BUILD_DIR || "build");
const SHARDS = Math.max(1, Number(process.env.FUZZ_SHARDS ?? Math.min(2, availableParallelism())));
/** Set in a shard process: which of the SHARDS it is, or "stripe" for the Stripe-configured one. */
const STRIPE_SHARD = process.env.FUZZ_SHARD === "stripe";
const SHARD = process.env.FUZZ_SHARD === undefined ? null : STRIPE_SHARD ? -1 : Number(process.env.FUZZ_SHARD);
const WEBHOOK_SECRET = "whsec_fuzz_webhook_secret";
const REPORT = process.env.FUZZ_REPORT ?? "test-reports/fuzz.json";

// ---- coordinator: runs the shards and merges their reports ----------------------------------
if (SHARD === null) {
  console.log(`fuzz: seed ${SEED}, ${CASES} cases a route (replay: ${REPLAY})`);
  const shards = [...Array.from({ length: SHARDS }, (_, k) => String(k)), "stripe"];
  const reports = shards.map((shard) => `test-reports/fuzz-shard-${shard}.json`);
  const codes = await Promise.all(
    reports.map(
      (report, k) =>
        new Promise((resolve) => {
          // Each shard runs the server in its own process, started as production starts it.
          const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, process.argv[1]], {
            stdio: "inherit",
            env: {
              ...SERVER_ENV,
              ...process.env,
              FUZZ_SHARD: shards[k],
              FUZZ_SHARDS: String(SHARDS),
              FUZZ_REPORT: report,
              FUZZ_SEED: String(SEED),
              FUZZ_CASES: String(CASES),
            },
          });
          child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
        }),
    ),
  );
  const merged = { passed: 0, failed: 0, seed: SEED, cases: CASES, shards: SHARDS, summary: [], failures: [] };
  for (const report of reports) {
    try {
      const r = JSON.parse(readFileSync(report, "utf8"));
      merged.passed += r.passed;
      merged.failed += r.failed;
      merged.summary.push(...r.summary);
      merged.failures.push(...r.failures);
    } catch (error) {
      merged.failed += 1;
      merged.failures.push({ route: `(shard report ${report})`, error: String(error) });
    }
    rmSync(report, { force: true });
  }
  mkdirSync("test-reports", { recursive: true });
  writeFileSync(REPORT, JSON.stringify(merged, null, 2));
  const requests = merged.summary.reduce((n, s) => n + s.cases, 0);
  console.log(
    `\nfuzz: ${merged.summary.length} routes in ${shards.length} processes, ${requests} requests, ${merged.failures.length} failures (seed ${SEED})`,
  );
  if (merged.failed > 0) console.error(`fuzz failed with seed ${SEED}; replay: ${REPLAY}`);
  process.exit(codes.some((c) => c !== 0) || merged.failed > 0 ? 1 : 0);
}
/**
 * Whether this shard runs the route at this place in the list of all routes: Stripe's routes run in
 * the Stripe shard only, the others are dealt out over the numbered shards.
 */
const mine = (route, index) => (STRIPE_SHARD ? Boolean(route?.stripe) : !route?.stripe && index % SHARDS === SHARD);
/** Whether FUZZ_ROUTE selects this route (a POST route's object, or a GET path). */
const selected = (route) => (typeof route === "string" ? `GET ${route}` : route.name).includes(ONLY);

// ---- deterministic randomness ---------------------------------------------------------------
let state = SEED >>> 0;
/** Each route's cases come from the seed and its name (FNV-1a), not from the routes before it. */
function reseed(name) {
  let h = (0x811c9dc5 ^ SEED) >>> 0;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619) >>> 0;
  state = h;
}
function rand() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (list) => list[Math.floor(rand() * list.length)];
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));

const INJECTIONS = [
  "' OR '1'='1",
  "1; DROP TABLE orders;--",
  '" OR ""="',
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "javascript:alert(1)",
  "${7*7}",
  "{{7*7}}",
  "#{7*7}",
  "../../../../etc/passwd",
  "..\\..\\windows\\win.ini",
  '{"$gt":""}',
  "\r\nSet-Cookie: hacked=1",
  "%00",
  "\u0000",
  "abc\u0000def",
  "\uD800",
  "\u202Egnp.exe",
  "😀".repeat(50),
  "null",
  "undefined",
  "NaN",
  "-1",
  "0x7fffffff",
  "9".repeat(400),
  "__proto__",
  "constructor",
  "/\\evil.example",
  "//evil.example",
  "https://evil.example/",
];
const WRONG_TYPES = [null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 53, [], [1, 2], {}, { a: 1 }, "", " "];
const longString = (n) => "A".repeat(n);
const junkKey = () =>
  pick(["__proto__", "constructor", "prototype", "amount", "price", "discount", "multiplier", "isAdmin", `k${int(0, 999)}`]);

function garbageBody() {
  return pick([
    () => "",
    () => "{",
    () => '{"kind":',
    () => "[".repeat(5000) + "]".repeat(5000),
    () => '{"a":'.repeat(2000) + "1" + "}".repeat(2000),
    () => "\u0000\u0001\u0002\u00ff",
    () => "<?xml version='1.0'?><a>1</a>",
    () => "a=1&a=2&a[]=3&a[b]=4",
    () => Buffer.from(Array.from({ length: int(1, 2000) }, () => int(0, 255))).toString("latin1"),
    () => JSON.stringify(pick(WRONG_TYPES)),
    () => JSON.stringify("x".repeat(int(1, 200_000))),
  ])();
}

/** Percent-encodes; a lone surrogate (not encodable) becomes invalid UTF-8 bytes, itself a good case. */
function enc(value) {
  try {
    return encodeURIComponent(value);
  } catch {
    return "%ED%A0%80";
  }
}

/** The query string added to every request: usually junk, sometimes oversize or repeated keys. */
function junkQuery() {
  const r = rand();
  if (r < 0.4) return "";
  const parts = Array.from({ length: int(1, 6) }, () => {
    // (The last six are what Better Auth's GET endpoints read.)
    const key = pick(
      // prettier-ignore
      ["q", "next", "tab", "session_id", "index", "_data", "_routes", junkKey(), "%00", "a[b]",
        "token", "callbackURL", "redirectTo", "error", "state", "code"],
    );
    const value = pick([pick(INJECTIONS), longString(int(1, 3000)), String(pick(WRONG_TYPES)), "%zz", "%"]);
    return `${enc(key)}=${r < 0.9 ? enc(value) : value}`;
  });
  return `?${parts.join("&")}`;
}

// ---- the server ------------------------------------------------------------------------------
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

const FUZZ_EMAIL = "fuzz-user@example.com";
const FUZZ_PASSWORD = "fuzz-password-123";

// Stack traces the server itself prints while it is fuzzed: a client's bad input must not fill the
// log with them either (React Router's default error handler printed one for every POST to a page
// without an action). Collected here, reported as a failure of "(server log)".
const serverLogStacks = [];
const consoleError = console.error.bind(console);
console.error = (...args) => {
  const text = args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(" ");
  // A stack as printed, or inside a structured (JSON) log line.
  if (/(\n|\\n)\s+at\s.+:\d+:\d+/.test(text) && serverLogStacks.length < 20) serverLogStacks.push(text.slice(0, 600));
  consoleError(...args);
};

const port = await freePort();
const stripeFake = STRIPE_SHARD ? await startFakeStripe() : null;
const origin = `http://localhost:${port}`;
const dataDir = newDataDir("fuzz-data-");
Object.assign(process.env, {
  NODE_ENV: "production",
  DATA_DIR: dataDir,
  DATABASE_URL: "",
  PUBLIC_SITE_URL: origin,
  LOG_LEVEL: "error",
  STRIPE_SECRET_KEY: stripeFake ? "sk_test_fuzz" : "",
  STRIPE_WEBHOOK_SECRET: stripeFake ? WEBHOOK_SECRET : "",
  ...(stripeFake ? { STRIPE_API_URL: stripeFake.url } : {}),
  MAILCHIMP_API_KEY: "",
  MAILCHIMP_LIST_ID: "",
  // The fuzzed customer is an operator too, so the admin page's action is reached, not refused.
  OPERATOR_EMAILS: FUZZ_EMAIL,
  SMTP_URL: "",
  // Every request comes from a different client address (X-Forwarded-For from this process): the
  // per-IP rate limits would otherwise answer most cases with 429 before any input is read.
  TRUSTED_PROXIES: "127.0.0.1,::1",
  // Fuzzed sign-ups and sign-ins hash passwords: at test strength, not 0.4 s of CPU each.
  PASSWORD_HASH_COST: "test",
});
const mod = await import(pathToFileURL(path.join(BUILD_DIR, "server/index.js")).href);
await mod.boot();
const listener = await new Promise((resolve) => {
  const l = mod.app.listen(port, "127.0.0.1", () => resolve(l));
});

async function rows(query) {
  const result = await mod.database().db.execute(query);
  return result.rows;
}

/** Row counts of everything a request could write on a user's behalf. */
const WATCHED = [
  "orders",
  "payout_runs",
  "payouts",
  "leads",
  "support_tickets",
  "user_subscriptions",
  "user_addons",
  "affiliates",
  "referrals",
  "referral_clicks",
  "payment_events",
  "commission_ledger",
  "onboarding_progress",
  "stripe_events",
  '"user"',
  "account",
  "session",
  "user_roles",
  "verification",
  "mail_outbox",
  // Dashboard visits are written by POST /api/dashboard/visit only: no GET may add one (ADR 0027).
  "activity_events",
];
async function snapshot() {
  const parts = WATCHED.map((t) => `(select count(*) from ${t})::int as "${t.replaceAll('"', "")}"`);
  const [counts] = await rows(
    `select ${parts.join(", ")},
      (select count(*) from trial_access where trial_started)::int as trials,
      (select coalesce(sum(dashboard_access_count), 0) from trial_access)::int as access_counts,
      (select count(*) from orders where status <> 'pending')::int as settled_orders,
      (select coalesce(sum(length(first_name) + length(last_name) + length(company_name)), 0) from user_profiles)::int as profile_text,
      (select md5(coalesce(string_agg(user_id || ':' || coalesce(sidebar_collapsed::text, ''), ',' order by user_id), '')) from user_settings) as settings,
      (select md5(coalesce(string_agg(id || coalesce(password, ''), ',' order by id), '')) from account) as passwords,
      (select md5(coalesce(string_agg(id || name || coalesce(first_name, '') || coalesce(last_name, '') || coalesce(company_name, '') || coalesce(image, ''), ',' order by id), '')) from "user") as users`,
  ).catch(async () =>
    // Columns differ between schema versions; fall back to the table counts alone.
    rows(`select ${parts.join(", ")}, (select count(*) from trial_access where trial_started)::int as trials`),
  );
  return counts;
}

// ---- requests --------------------------------------------------------------------------------
let cookie = "";
const STACK = /\n\s+at\s.+:\d+:\d+|node_modules\/|\.server\.(ts|js):\d+|ReferenceError|TypeError: |SyntaxError: Unexpected/;

const MAX_BODY_BYTES = 256 * 1024;

async function send(request) {
  let res;
  const { body } = request;
  try {
    res = await sendOnce(request).catch((error) =>
      // A keep-alive socket the server closed after its previous answer (a 413 closes the
      // connection) fails the next request on it; a real client retries on a new connection.
      error?.cause?.code === "ECONNRESET" ? sendOnce(request) : Promise.reject(error),
    );
  } catch (error) {
    // The server refuses an oversize body (413) and closes the connection while the client is
    // still uploading, so the client may see a reset instead of the answer. That is the design;
    // a reset for a body the server should have read is a failure.
    const size = Buffer.byteLength(String(body ?? ""));
    if (size > MAX_BODY_BYTES) return { status: 413, text: "" };
    return { status: 599, text: `connection failed: ${error?.cause?.code ?? error}` };
  }
  return res;
}

async function sendOnce({ method, url, body, contentType, headers = {}, anonymous = false }) {
  const init = {
    method,
    redirect: "manual",
    headers: {
      Origin: origin,
      Accept: pick(["application/json", "text/html", "*/*"]),
      "X-Forwarded-For": `10.${int(0, 255)}.${int(0, 255)}.${int(1, 254)}`,
      ...(cookie && !anonymous ? { Cookie: cookie } : {}),
      ...(contentType ? { "Content-Type": contentType } : {}),
      ...headers,
    },
  };
  if (method !== "GET" && method !== "HEAD") init.body = body;
  const res = await fetch(`${origin}${url}`, init);
  const text = await res.text();
  return { status: res.status, text, res };
}

const form = (fields) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) {
    if (Array.isArray(v)) for (const item of v) p.append(k, String(item));
    else if (v !== undefined) p.append(k, typeof v === "object" && v !== null ? JSON.stringify(v) : String(v));
  }
  return p.toString();
};

/**
 * One route under test. `base` is a valid body; `bad` lists, per field, values that make the
 * request invalid on their own, so any case that uses at least one of them must change nothing.
 * `text` fields get hostile-but-valid strings in the second phase.
 */
const dashboardForm = (pathname, base, bad, text = []) => ({
  name: `POST ${pathname}`,
  path: pathname,
  format: "form",
  dataRoute: true,
  base,
  bad,
  text,
});

/** An app trial's no-JavaScript form (an app id and a pricing tab), posted to `pathname`. */
const appTrialForm = (name, pathname) => ({
  name,
  path: pathname,
  format: "form",
  dataRoute: true,
  base: { appId: "7", tab: "base" },
  required: ["appId", "tab"],
  bad: {
    appId: ["0", "-1", "999999999", "7.5", "", ...INJECTIONS],
    tab: ["yearly", "", ...INJECTIONS],
  },
  text: [],
});

/** A Stripe-Signature header for these bytes, this secret and this time. */
const sign = (payload, secret, timestamp) => Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });

/** A callback request (lead), valid, with the values that make it invalid: sent as JSON or a form. */
const CALLBACK_LEAD = {
  base: {
    firstName: "Fuzz",
    lastName: "Lead",
    email: "fuzz-lead@example.com",
    phone: "+1 555 0100",
    company: "Fuzz Co",
    projectType: "Web Application",
    budget: "Let's discuss",
    timeframe: "ASAP",
    message: "Hello there",
    preferredTime: "Any time",
  },
  bad: {
    firstName: ["", "   ", longString(5000), [], {}],
    email: ["nope", "a@", "", longString(300) + "@x.example", ...INJECTIONS.slice(0, 12)],
    phone: ["", longString(5000), {}],
    projectType: ["Spaceship", ...INJECTIONS.slice(0, 10)],
    budget: ["$1", ...INJECTIONS.slice(0, 10)],
    timeframe: ["Yesterday", ...INJECTIONS.slice(0, 10)],
    preferredTime: ["Midnight", ...INJECTIONS.slice(0, 10)],
    message: [longString(20_000)],
  },
  text: ["firstName", "lastName", "company", "message"],
};

/** A JSON endpoint of Better Auth's, behind /api/auth/*. */
const authEndpoint = (endpoint, base, bad, extra = {}) => ({
  name: `POST /api/auth${endpoint}`,
  path: `/api/auth${endpoint}`,
  format: "json",
  base,
  bad,
  text: [],
  ...extra,
});
const BAD_EMAILS = ["", "nope", "a@", "@b.example", 5, null, [], {}, longString(400), ...INJECTIONS.slice(0, 8)];
/** Redirect targets off the site, each of which must be refused (never followed, never mailed). */
const FOREIGN_URLS = [
  "https://evil.example/",
  "//evil.example",
  "/\\evil.example",
  "http://localhost.evil.example/",
  "javascript:alert(1)",
  5,
  {},
];
/** Provider and account ids: never "credential", which names the password login itself. */
const BAD_IDS = ["", "github", longString(500), ...INJECTIONS, ...WRONG_TYPES.filter((v) => v !== "" && v !== " ")];

function routes(ctx) {
  return [
    {
      name: "POST /api/checkout",
      path: "/api/checkout",
      format: "json",
      base: { kind: "app", appId: 7, tab: "base" },
      bad: {
        kind: ["coupon", "APP", ...INJECTIONS, ...WRONG_TYPES],
        appId: [0, -1, 1.5, "7", 2 ** 31, 1e308, 2 ** 53, null, [], {}, ...INJECTIONS],
        tab: ["premium", "", ...INJECTIONS, 1, null, []],
        amount: [1, 0, -100, "1"],
      },
      text: [],
    },
    {
      name: "POST /api/checkout (package)",
      path: "/api/checkout",
      format: "json",
      base: { kind: "package", planId: "starter", mode: "one-time", rush: false, goal: "add_ai", timeline: "standard" },
      bad: {
        planId: ["platinum", ...INJECTIONS, 1, null],
        mode: ["yearly", ...INJECTIONS, true],
        rush: ["true", 1, "yes", null],
        goal: [longString(65), 7, [], {}],
        multiplier: [0.01, 0, -1],
      },
      text: [],
    },
    {
      name: "POST /api/checkout (distributor)",
      path: "/api/checkout",
      format: "json",
      base: { kind: "distributor", email: "fuzz-buyer@example.com", fullName: "Fuzz Buyer", businessName: "Fuzz Ltd" },
      bad: {
        email: ["not-an-email", "a@", "@b.example", longString(300) + "@x.example", ...INJECTIONS, 5, null],
        fullName: ["", "   ", longString(121), 5, [], null],
        businessName: ["", longString(161), {}, false],
        setupFee: [0, 1],
      },
      text: ["fullName", "businessName"],
    },
    {
      name: "POST /api/callback",
      path: "/api/callback",
      format: pick(["json", "form"]),
      ...CALLBACK_LEAD,
    },
    {
      name: "POST /api/dashboard/visit",
      path: "/api/dashboard/visit",
      format: "json",
      base: { path: "/dashboard/billing" },
      required: ["path"],
      bad: { path: [longString(300), "", "/apps", "/dashboard/", "/dashboard/a/b/c/d", ...INJECTIONS, 5, null, [], {}] },
      text: [],
    },
    {
      name: "POST /api/billing/sync",
      path: "/api/billing/sync",
      format: "json",
      base: {},
      bad: { sessionId: [longString(500), ...INJECTIONS, 5, [], {}], extra: [1] },
      text: [],
    },
    // Stripe's routes (run by the Stripe shard). The webhook's bodies are well-formed events; what
    // makes each case invalid is its signature: none, malformed, another secret's, older than the
    // 300 s tolerance, or made for other bytes. None may be applied or recorded.
    {
      name: "POST /api/webhooks/stripe",
      path: "/api/webhooks/stripe",
      format: "json",
      stripe: true,
      base: { id: "evt_fuzz", type: "checkout.session.completed", created: 1, data: { object: { id: ctx.sessionId } } },
      bad: { id: INJECTIONS, type: INJECTIONS, created: WRONG_TYPES },
      headers: (body) => {
        const now = Math.floor(Date.now() / 1000);
        return pick([
          () => ({}),
          () => ({ "Stripe-Signature": pick(["t=1,v1=00", "garbage", longString(5000), "", `t=${now},v1=${"0".repeat(64)}`]) }),
          () => ({ "Stripe-Signature": sign(body, "whsec_someone_else", now) }),
          () => ({ "Stripe-Signature": sign(body, WEBHOOK_SECRET, now - 301) }),
          () => ({ "Stripe-Signature": sign(`${body} `, WEBHOOK_SECRET, now) }),
        ])();
      },
      text: [],
    },
    {
      name: "POST /api/billing/portal",
      path: "/api/billing/portal",
      format: "json",
      stripe: true,
      base: {},
      bad: { customerId: ["cus_other", ...INJECTIONS.slice(0, 5)], url: ["https://evil.example"] },
      text: [],
    },
    {
      name: "POST /api/billing/sync (stripe)",
      path: "/api/billing/sync",
      format: "json",
      stripe: true,
      base: { sessionId: ctx.sessionId },
      bad: { sessionId: [longString(500), ...INJECTIONS, 5, [], {}, "cs_test_no_such_session"], extra: [1] },
      text: [],
    },
    {
      name: "POST /api/auth/sign-in/email",
      path: "/api/auth/sign-in/email",
      format: "json",
      base: { email: "fuzz-nobody@example.com", password: "wrong-password-123" },
      bad: { email: ["", "nope", 5, null, [], {}, longString(400)], password: ["", null, 5, [], {}] },
      text: [],
    },
    {
      name: "POST /api/auth/sign-up/email",
      path: "/api/auth/sign-up/email",
      format: "json",
      base: {
        email: "fuzz-signup-api@example.com",
        password: "long-enough-pass",
        name: "Fuzz",
        firstName: "F",
        lastName: "L",
        companyName: "C",
      },
      bad: {
        email: ["", "nope", 5, null, [], {}, longString(400)],
        password: ["short", longString(200), 5, null, []],
        name: ["a\u0000b", 5, null, []],
        firstName: ["x\u0000", "\uD800", 5, {}],
      },
      text: [],
    },
    // Better Auth's other endpoints: every one a signed-in user (or a visitor) can call. Each base
    // is a harmless request; the bad values make it invalid on their own.
    authEndpoint(
      "/sign-in/social",
      { provider: "google", callbackURL: "/dashboard" },
      { provider: BAD_IDS, callbackURL: FOREIGN_URLS, errorCallbackURL: FOREIGN_URLS, newUserCallbackURL: FOREIGN_URLS },
    ),
    authEndpoint(
      "/link-social",
      { provider: "google", callbackURL: "/dashboard" },
      { provider: BAD_IDS, callbackURL: FOREIGN_URLS },
    ),
    authEndpoint("/callback/google", { state: "fuzz-state", code: "fuzz-code" }, { state: BAD_IDS, code: BAD_IDS }),
    authEndpoint(
      "/request-password-reset",
      { email: ctx.email, redirectTo: "/auth?tab=reset" },
      { email: BAD_EMAILS, redirectTo: FOREIGN_URLS },
    ),
    authEndpoint(
      "/reset-password",
      { newPassword: "another-long-password", token: "fuzz-no-such-token" },
      { newPassword: ["short", longString(200), 5, null, [], {}], token: BAD_IDS },
    ),
    authEndpoint(
      "/send-verification-email",
      { email: ctx.email, callbackURL: "/dashboard" },
      { email: BAD_EMAILS, callbackURL: FOREIGN_URLS },
    ),
    authEndpoint(
      "/verify-password",
      { password: ctx.password },
      { password: ["wrong-password-1", "", longString(200), 5, null, [], {}] },
    ),
    // With the right current password: only a bad value stands between a case and a new password
    // hash, which the snapshot would show.
    authEndpoint(
      "/change-password",
      { currentPassword: ctx.password, newPassword: ctx.password, revokeOtherSessions: false },
      {
        currentPassword: ["wrong-password-1", "", 5, null, [], {}],
        newPassword: ["short", longString(200), 5, null, [], {}],
        revokeOtherSessions: ["yes", 5, {}],
      },
    ),
    authEndpoint(
      "/change-email",
      { newEmail: "fuzz-other@example.com", callbackURL: "/dashboard" },
      { newEmail: [...BAD_EMAILS, ctx.email], callbackURL: FOREIGN_URLS },
    ),
    authEndpoint(
      "/update-user",
      { name: "Fuzz User", firstName: "Fuzz" },
      {
        name: [null, "", "   ", longString(257), "a\u0000b", 5, [], {}],
        firstName: [longString(101), "x\u0000", "\uD800", 5, {}],
        lastName: [longString(101), [], true],
        companyName: [longString(101), {}],
        image: ["javascript:alert(1)", "https://evil.example/a.png", 5],
        email: ["other@example.com"],
      },
    ),
    authEndpoint(
      "/delete-user",
      { password: "wrong-password-1" },
      { password: ["", 5, null, [], {}], token: BAD_IDS, callbackURL: FOREIGN_URLS },
    ),
    authEndpoint("/revoke-session", { token: "fuzz-no-such-token" }, { token: BAD_IDS }),
    authEndpoint("/unlink-account", { providerId: "google" }, { providerId: BAD_IDS, accountId: BAD_IDS }),
    authEndpoint("/refresh-token", { providerId: "google" }, { providerId: BAD_IDS, accountId: BAD_IDS, userId: BAD_IDS }),
    authEndpoint("/get-access-token", { providerId: "google" }, { providerId: BAD_IDS, accountId: BAD_IDS, userId: BAD_IDS }),
    authEndpoint("/get-session", {}, { disableCookieCache: ["yes", 5, {}], disableRefresh: ["no", 5, []] }),
    // Two-factor settings, each with a wrong password as its base: refused before anything changes.
    ...["/two-factor/enable", "/two-factor/disable", "/two-factor/get-totp-uri", "/two-factor/generate-backup-codes"].map(
      (endpoint) =>
        authEndpoint(
          endpoint,
          { password: "wrong-password-1" },
          { password: ["", longString(200), 5, null, [], {}], issuer: [longString(300), 5, {}] },
        ),
    ),
    // The sign-in's second step: without the first step's challenge cookie, every code is refused.
    ...["/two-factor/verify-totp", "/two-factor/verify-backup-code", "/two-factor/send-otp", "/two-factor/verify-otp"].map(
      (endpoint) =>
        authEndpoint(
          endpoint,
          { code: "000000" },
          { code: ["", "abcdef", longString(100), 5, null, [], {}], trustDevice: ["yes", 5, {}] },
          { anonymous: true },
        ),
    ),
    // Endpoints any body passes, which act on the session itself: sent signed out, where each must
    // refuse or do nothing (signed in, sign-out and the revocations would end the fuzzer's session).
    ...["/sign-out", "/revoke-sessions", "/revoke-other-sessions", "/update-session"].map((endpoint) =>
      authEndpoint(endpoint, {}, { token: BAD_IDS, userId: BAD_IDS, expiresAt: WRONG_TYPES }, { anonymous: true }),
    ),
    {
      name: "POST /auth",
      path: "/auth",
      format: "form",
      dataRoute: true,
      base: { intent: "signup", email: "fuzz-signup@example.com", password: "long-enough-pass", firstName: "F" },
      bad: {
        intent: ["signout", "admin", ...INJECTIONS],
        email: ["nope", "", longString(300), ...INJECTIONS.slice(0, 10)],
        password: ["short", longString(129)],
        firstName: [longString(101)],
      },
      text: [],
    },
    dashboardForm(
      "/dashboard",
      { intent: "start-trial", plan: "starter" },
      { intent: ["delete-account", "", ...INJECTIONS], plan: [longString(41), ...INJECTIONS, "enterprise-plus"] },
    ),
    dashboardForm(
      "/dashboard/onboarding",
      { intent: "complete", step: "schedule-call" },
      { intent: ["skip-all", ...INJECTIONS], step: [longString(61), "step-99", ...INJECTIONS] },
    ),
    dashboardForm(
      "/dashboard/support",
      { intent: "create-ticket", subject: "Fuzz subject", category: "Billing", message: "A fuzzed message body." },
      {
        subject: ["", "ab", longString(121)],
        category: ["Nope", ...INJECTIONS],
        message: ["short", longString(5001)],
      },
      ["subject", "message"],
    ),
    dashboardForm(
      "/dashboard/profile",
      { intent: "profile", firstName: "Fuzz", lastName: "User", companyName: "Fuzz Co" },
      {
        intent: ["delete", ...INJECTIONS],
        firstName: ["", longString(61)],
        lastName: ["", longString(61)],
        companyName: [longString(121)],
      },
      ["firstName", "lastName", "companyName"],
    ),
    dashboardForm(
      "/dashboard/settings",
      { intent: "preferences", emailUpdates: "on", sidebar: "expanded" },
      { sidebar: ["sideways", "", ...INJECTIONS], emailUpdates: ["maybe", ...INJECTIONS], intent: ["nuke", ...INJECTIONS] },
    ),
    dashboardForm("/dashboard/billing", { intent: "refresh" }, { intent: ["cancel-all", "", ...INJECTIONS] }),
    // Local Manage Billing's cancel: a ref of no order of the account's is a 404 that changes nothing.
    dashboardForm(
      "/dashboard/billing/manage",
      { intent: "cancel", ref: "fuzz-no-such-subscription" },
      { intent: ["cancel-all", "", ...INJECTIONS], ref: ["", longString(81), ...INJECTIONS] },
    ),
    // The no-JavaScript checkout forms of the dashboard (ADR 0016): ids only, priced on the server.
    {
      ...dashboardForm(
        "/dashboard/billing",
        { intent: "checkout", planType: "pro" },
        { planType: ["gold", "", longString(65), ...INJECTIONS] },
      ),
      name: "POST /dashboard/billing (checkout)",
    },
    dashboardForm(
      "/dashboard/addons",
      { addonIds: "seo-optimizer" },
      { addonIds: ["no-such-addon", "", longString(65), "a\u0000b", ...INJECTIONS] },
    ),
    dashboardForm("/dashboard/scaling", { tierIndex: "3" }, { tierIndex: ["5", "-1", "1.5", "", "999999", ...INJECTIONS] }),
    {
      name: "POST /checkout/local/:id",
      path: `/checkout/local/${ctx.sessionId}`,
      format: "form",
      dataRoute: true,
      base: { card: "4242424242424242", expiry: "12/40", cvc: "123" },
      bad: {
        card: ["", "4242", "1234567812345678", longString(50), ...INJECTIONS],
        expiry: ["13/40", "00/40", "12/20", "", longString(20), ...INJECTIONS],
        cvc: ["", "1", "12345", "abc", ...INJECTIONS],
      },
      text: [],
    },
    {
      name: "POST /affiliate-signup",
      path: "/affiliate-signup",
      format: "form",
      dataRoute: true,
      base: {
        intent: "signup",
        firstName: "F",
        lastName: "L",
        email: "fuzz-aff@example.com",
        password: "long-enough-pass",
        username: "fuzzaff",
      },
      bad: {
        username: ["a", longString(31), "UPPER CASE", "../x", ...INJECTIONS],
        email: ["nope", "", ...INJECTIONS.slice(0, 8)],
        password: ["short", longString(129)],
        intent: ["admin", ...INJECTIONS],
      },
      text: [],
    },
    // The no-JavaScript forms of the marketing pages: the same checkout and callback as the API
    // routes above, through each page's own form parsing.
    // The no-JavaScript trial button of a signed-in visitor, on /apps and on an app's own page: priced
    // on the server, never from the form.
    appTrialForm("POST /apps", "/apps"),
    appTrialForm("POST /apps/:slug", "/apps/medischeduler-ai"),
    // Confirming a plan change that is not the account's (or not one at all) is a 404 that changes nothing.
    dashboardForm(
      "/dashboard/billing/change/00000000-0000-4000-8000-000000000000",
      { intent: "confirm" },
      { intent: ["cancel", "", ...INJECTIONS] },
    ),
    {
      name: "POST /packages",
      path: "/packages",
      format: "form",
      dataRoute: true,
      base: { planId: "starter", mode: "one-time", rush: "false", goal: "add_ai", timeline: "standard" },
      bad: {
        planId: ["platinum", "", ...INJECTIONS],
        mode: ["yearly", ...INJECTIONS],
        goal: [longString(65), "a\u0000b"],
        // (A lone surrogate is no bad value in a form: encoding turns it into U+FFFD.)
        timeline: [longString(65), "a\u0007b"],
        industry: [longString(81), "x\u0000"],
      },
      text: [],
    },
    {
      name: "POST /distributors",
      path: "/distributors",
      format: "form",
      dataRoute: true,
      base: { email: "fuzz-buyer@example.com", fullName: "Fuzz Buyer", businessName: "Fuzz Ltd" },
      bad: {
        email: ["not-an-email", "a@", "", longString(300) + "@x.example", ...INJECTIONS],
        fullName: ["", "   ", longString(121), "a\u0000b"],
        businessName: ["", longString(161), "a\u0007b"],
      },
      text: ["fullName", "businessName"],
    },
    {
      name: "POST /live-training",
      path: "/live-training",
      format: "form",
      dataRoute: true,
      ...CALLBACK_LEAD,
    },
    {
      name: "POST /admin",
      path: "/admin",
      format: "form",
      dataRoute: true,
      base: { intent: "retry-lead", leadId: "00000000-0000-0000-0000-000000000000" },
      bad: { intent: ["drop", ...INJECTIONS], leadId: [...INJECTIONS, longString(100)] },
      text: [],
    },
    {
      name: "POST /admin/payouts",
      path: "/admin/payouts",
      format: "form",
      dataRoute: true,
      base: { intent: "cancel-run", runId: "999999" },
      bad: { intent: ["drop", "create-run", ...INJECTIONS], runId: ["0", "-1", "1e99", ...INJECTIONS, longString(100)] },
      text: [],
    },
    {
      name: "POST /affiliate-dashboard",
      path: "/affiliate-dashboard",
      format: "form",
      dataRoute: true,
      base: { intent: "payout-email", payoutEmail: "paypal@example.com" },
      bad: { intent: ["drop", ...INJECTIONS], payoutEmail: ["", "=cmd@x.com", longString(300), ...INJECTIONS] },
      text: ["payoutEmail"],
    },
    // The operator console's record actions: a refund of an order that does not exist, a ticket
    // answer and a lead retry (each 404s or refuses; none may 500).
    {
      name: "POST /admin/orders/:id",
      path: "/admin/orders/00000000-0000-4000-8000-000000000000",
      format: "form",
      dataRoute: true,
      base: {
        intent: "refund-order",
        orderId: "00000000-0000-4000-8000-000000000000",
        amount: "100",
        reason: "duplicate",
        note: "",
        key: "00000000-0000-4000-8000-000000000001",
        confirm: "yes",
      },
      bad: {
        intent: ["drop", ...INJECTIONS],
        amount: ["-1", "0", "1e9", "abc", ...INJECTIONS],
        reason: ["", ...INJECTIONS],
        key: ["not-a-uuid", ...INJECTIONS],
        note: [longString(501), "a\u0000b"],
      },
      text: ["note"],
    },
    {
      name: "POST /admin/tickets/:id",
      path: "/admin/tickets/2147483647",
      format: "form",
      dataRoute: true,
      base: { intent: "answer-ticket", body: "Thanks, this is fixed now." },
      bad: { intent: ["drop", ...INJECTIONS], body: ["", " ", longString(5001), "a\u0000b", ...INJECTIONS] },
      text: ["body"],
    },
    // An app's edit form against an id no app has: a valid form is a 404, a bad one a 400 (never a write).
    {
      name: "POST /admin/apps/:id",
      path: "/admin/apps/2147483647",
      format: "form",
      dataRoute: true,
      base: {
        intent: "save",
        name: "Fuzz App",
        description: "An app that only the fuzzer edits.",
        industry: "Financial Services",
        features: "One\nTwo",
        deliveryTime: "7-10 days",
        isActive: "on",
        basePrice: "1000",
        expressPrice: "1500",
        standardPrice: "900",
        monthlyFinancing: "50",
        effectiveAt: "",
      },
      bad: {
        intent: ["drop", "cancel-price", ...INJECTIONS],
        name: ["", "!!", longString(81), "a\u0000b", ...INJECTIONS],
        industry: ["", "Space", ...INJECTIONS],
        features: ["", longString(121), "a\u0000b"],
        basePrice: ["-1", "0", "1e9", "12.5", "abc", ...INJECTIONS],
        monthlyFinancing: ["-1", "99999999999", ...INJECTIONS],
        isActive: ["yes", ...INJECTIONS],
        effectiveAt: ["2020-01-01T00:00", "tomorrow", "9999-12-31T23:59", ...INJECTIONS],
      },
      text: ["name", "description", "features", "deliveryTime"],
    },
    {
      name: "POST /admin/addons/:id",
      path: "/admin/addons/no-such-addon",
      format: "form",
      dataRoute: true,
      base: {
        intent: "save",
        name: "Fuzz Add-on",
        description: "An add-on that only the fuzzer edits.",
        category: "Marketing",
        features: "One\nTwo",
        isActive: "on",
        monthlyPrice: "29.99",
        effectiveAt: "",
      },
      bad: {
        intent: ["drop", "cancel-price", ...INJECTIONS],
        name: ["", longString(81), "a\u0000b", ...INJECTIONS],
        category: ["", "Toys", ...INJECTIONS],
        features: ["", longString(121), "a\u0000b"],
        monthlyPrice: ["-1", "0", "0.5", "1e9", "29.999", "abc", ...INJECTIONS],
        effectiveAt: ["2020-01-01T00:00", "tomorrow", ...INJECTIONS],
      },
      text: ["name", "description", "features"],
    },
    // A plan's price form against an id no plan has: a valid form is a 404, a bad one a 400 (never a write).
    {
      name: "POST /admin/plans/:id",
      path: "/admin/plans/no-such-plan",
      format: "form",
      dataRoute: true,
      base: { intent: "save", amount: "499.99", effectiveAt: "" },
      bad: {
        intent: ["drop", "cancel-price", ...INJECTIONS],
        amount: ["-1", "0", "0.001", "1e9", "10000000", "abc", ...INJECTIONS],
        originalAmount: ["1", "abc", ...INJECTIONS],
        setupFee: ["1", "abc", ...INJECTIONS],
        monthlyAmount: ["1", "0.5", "abc", ...INJECTIONS],
        effectiveAt: ["2020-01-01T00:00", "tomorrow", "9999-12-31T23:59", ...INJECTIONS],
      },
      text: [],
    },
    {
      name: "POST /admin/leads/:id",
      path: "/admin/leads/00000000-0000-0000-0000-000000000000",
      format: "form",
      dataRoute: true,
      base: { intent: "retry-lead" },
      bad: { intent: ["drop", ...INJECTIONS] },
      text: [],
    },
    {
      name: "POST /admin/emails/:id",
      path: "/admin/emails/2147483647",
      format: "form",
      dataRoute: true,
      base: { intent: "retry-email" },
      bad: { intent: ["drop", ...INJECTIONS] },
      text: [],
    },
  ];
}

/**
 * GET routes whose query strings are fuzzed, signed in: every page and resource route (the coverage
 * check holds the list to the build's manifest) and Better Auth's GET endpoints. No GET may write
 * (a link or a prefetch must never change state), whatever its query string. The API routes get the full count; pages (each a
 * full server render, half of them as the page's data request) a fifth of it where the page reads
 * its query string, a twentieth where it does not, which keeps `npm test` inside its budget.
 */
const PAGE_CASES = Math.max(50, Math.round(CASES / 5));
const SWEEP_CASES = Math.max(20, Math.round(CASES / 20));
/** The pages whose loaders read the query string (grep searchParams in app/routes). */
const QUERY_PAGES = new Set(
  // prettier-ignore
  ["/apps", "/packages", "/goals", "/questionnaire", "/distributors", "/distributor-success", "/payment-success",
    "/affiliate-signup", "/affiliate-dashboard", "/auth", "/dev/mailbox", "/dev/mailbox.json", "/dashboard",
    "/dashboard/addons", "/dashboard/billing", "/admin/customers", "/admin/orders", "/admin/leads", "/admin/affiliates",
    "/admin/tickets", "/admin/audit", "/admin/export/orders", "/admin/export/audit",
    "/admin/emails", "/admin/export/emails", "/admin/apps", "/admin/export/apps",
    "/admin/addons", "/admin/export/addons"],
);
function getRoutes(ctx) {
  // prettier-ignore
  const pages = [
    "/", "/how-it-works", "/results", "/industries", "/goals", "/packages", "/questionnaire", "/apps",
    "/live-training", "/earn", "/distributors", "/distributor-success", "/payment-success", "/payment-cancel",
    "/ref/fuzz-nobody", "/affiliate-signup", "/affiliate-dashboard", "/auth", "/admin", "/admin/payouts",
    "/admin/payouts/1/csv", "/no-such-page",
    "/sitemap.xml", "/robots.txt", "/dev/mailbox", "/dev/mailbox.json", `/checkout/local/${ctx.sessionId}`, "/privacy",
    "/terms", "/apps/medischeduler-ai", "/apps/no-such-app",
    // The operator console (the fuzzed customer is an operator).
    "/admin/customers", "/admin/orders", "/admin/leads", "/admin/affiliates", "/admin/tickets", "/admin/audit",
    "/admin/no-such-table", "/admin/export/orders", "/admin/export/audit", "/admin/customers/fuzz-nobody",
    "/admin/orders/00000000-0000-4000-8000-000000000000", "/admin/leads/fuzz-nobody", "/admin/tickets/1",
    "/admin/tickets/abc",
    "/admin/emails", "/admin/export/emails", "/admin/emails/1", "/admin/emails/abc",
    "/admin/apps", "/admin/export/apps", "/admin/apps/1", "/admin/apps/new", "/admin/apps/abc",
    "/admin/addons", "/admin/export/addons", "/admin/addons/email-campaign-builder", "/admin/addons/Bad_Id",
    "/admin/plans", "/admin/plans/plan-pro", "/admin/plans/package-starter", "/admin/plans/no-such-plan",
  ];
  // prettier-ignore
  const dashboard = [
    "", "/billing", "/addons", "/scaling", "/onboarding", "/profile", "/analytics", "/settings", "/support",
    "/automation", "/billing/manage", "/billing/receipts/fuzz-receipt", "/no-such-page",
    "/billing/change/00000000-0000-4000-8000-000000000000", "/billing/change/------------------------------------",
  ].map((page) => `/dashboard${page}`);
  const api = ["/checkout", "/callback", "/webhooks/stripe", "/billing/portal", "/billing/sync", "/dashboard/visit"].map(
    (p) => `/api${p}`,
  );
  // Better Auth's GET endpoints (tokens, callback and error URLs arrive in the query string).
  // prettier-ignore
  const auth = [
    "/verify-email", "/reset-password/fuzz-token", "/delete-user/callback", "/callback/google", "/error",
    "/get-session", "/list-sessions", "/list-accounts", "/account-info", "/ok",
  ].map((endpoint) => `/api/auth${endpoint}`);
  return [...pages, ...dashboard, ...api, ...auth];
}

/** A page's data request (React Router's single fetch). */
const dataPath = (pathname) => (pathname === "/" ? "/_.data" : `${pathname}.data`);

/** Whether any of these concrete paths matches the route's expression. */
const sent = (paths, re) => paths.some((p) => re.test(p));

/** A route path ("/checkout/local/:id", "/api/auth/*") as a regular expression for concrete paths. */
const routePattern = (p) => new RegExp(`^${p.replaceAll(/:[^/]+/g, "[^/]+").replace(/\*$/, ".*")}$`);

/**
 * What the fuzzer does not send, as a list of failures: every route with an action in the build's
 * route manifest, and every endpoint Better Auth serves under /api/auth/*, must be among the routes
 * above, so a new form or endpoint cannot go unfuzzed.
 */
function uncovered(postRoutes, gets) {
  const assets = path.join(BUILD_DIR, "client/assets");
  const file = readdirSync(assets).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) return ["(no route manifest in the build)"];
  const text = readFileSync(path.join(assets, file), "utf8");
  const manifest = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1));
  const fullPath = (route) => {
    const parts = [];
    for (let r = route; r; r = manifest.routes[r.parentId]) if (r.path) parts.unshift(r.path);
    return `/${parts.join("/")}`;
  };
  const posts = postRoutes.map((route) => route.path);
  const missing = [];
  for (const route of Object.values(manifest.routes)) {
    const where = fullPath(route);
    const re = routePattern(where);
    // Every page and resource route is fetched (the root and pathless layouts are not routes of their own).
    const routable = route.id !== "root" && (route.path || route.index);
    if (routable && !sent(gets, re)) missing.push(`GET ${where} (${route.id})`);
    // The auth splat is Better Auth's router: its endpoints are checked one by one below.
    if (route.hasAction && route.path !== "api/auth/*" && !sent(posts, re)) missing.push(`POST ${where} (${route.id})`);
  }
  for (const endpoint of Object.values(mod.auth().api)) {
    if (!endpoint.path) continue; // callable from server code only
    const where = `/api/auth${endpoint.path}`;
    const re = routePattern(where);
    const post = [endpoint.options?.method].flat().includes("POST");
    if (!sent(post ? posts : gets, re)) missing.push(`${post ? "POST" : "GET"} ${where}`);
  }
  return missing;
}

function encode(route, fields) {
  if (route.format === "json") return { body: JSON.stringify(fields), contentType: "application/json" };
  return { body: form(fields), contentType: "application/x-www-form-urlencoded" };
}

function invalidCase(route) {
  const r = rand();
  const url = () => `${route.dataRoute && rand() < 0.85 ? `${route.path}.data` : route.path}${junkQuery()}`;
  if (r < 0.15) {
    return {
      method: "POST",
      url: url(),
      body: garbageBody(),
      contentType: pick([
        "application/json",
        "application/x-www-form-urlencoded",
        "text/plain",
        "multipart/form-data",
        "",
        "application/xml",
      ]),
      anonymous: route.anonymous,
    };
  }
  const fields = { ...route.base };
  // A form carries only strings: a number or an object would arrive as a (possibly valid) string,
  // so form routes use only the string values of their bad lists.
  const usable = (key) => (route.format === "form" ? route.bad[key].filter((v) => typeof v === "string") : route.bad[key]);
  const badKeys = Object.keys(route.bad).filter((key) => usable(key).length > 0);
  const chosen = new Set([pick(badKeys)]);
  while (rand() < 0.3) chosen.add(pick(badKeys));
  for (const key of chosen) {
    const value = pick(usable(key));
    fields[key] = value;
  }
  // A required field missing is invalid on its own too.
  if (route.required && rand() < 0.1) delete fields[pick(route.required)];
  // Unknown keys and hostile values elsewhere make it noisier, never valid again.
  if (rand() < 0.3) fields[junkKey()] = pick(INJECTIONS);
  const { body, contentType } = encode(route, fields);
  return { method: "POST", url: url(), body, contentType, headers: route.headers?.(body), anonymous: route.anonymous };
}

/** A GET of the page (or its data request) or API route with a junk query string. */
function getCase(pathname) {
  const target = !pathname.startsWith("/api/") && rand() < 0.5 ? dataPath(pathname) : pathname;
  return { method: "GET", url: `${target}${junkQuery() || `?q=${enc(pick(INJECTIONS))}`}` };
}

/**
 * Which request of a route wrote: its cases again, from the same seed in the same order (the
 * generator is drawn from by the case and by its sending alike), with a snapshot around each. The
 * first write may not happen twice (a row already there); the replay command then finds it.
 */
async function firstWriter(name, cases, next) {
  reseed(name);
  for (let i = 0; i < cases; i++) {
    const request = next();
    const before = await snapshot();
    const response = await send(request);
    const after = await snapshot();
    const changed = Object.keys(before).filter((k) => before[k] !== after[k]);
    if (changed.length > 0)
      return {
        writer: { case: i + 1, status: response.status, request: { ...request, body: String(request.body ?? "").slice(0, 300) } },
      };
  }
  return { writer: `not written again on a second pass: replay with FUZZ_ROUTE="${name}" ${REPLAY}` };
}

function hostileCase(route) {
  const fields = { ...route.base };
  for (const key of route.text) {
    // Hostile text within the field's length limit (the invalid phase covers oversize).
    fields[key] = `${pick(["Fuzz ", ""])}${pick(INJECTIONS).slice(0, 40)}${pick([" text", ""])}`.padEnd(12, ".");
  }
  const { body, contentType } = encode(route, fields);
  return { method: "POST", url: route.dataRoute ? `${route.path}.data` : route.path, body, contentType };
}

const failures = [];
const summary = [];
function check(routeName, request, response) {
  const failure = () => ({
    route: routeName,
    status: response.status,
    request: { ...request, body: String(request.body ?? "").slice(0, 300) },
    response: response.text.slice(0, 500),
  });
  if (response.status >= 500 || STACK.test(response.text)) failures.push(failure());
  // No input may turn this site into an open redirect (callbackURL, redirectTo, next...): with the
  // local checkout provider, nothing here redirects off the site.
  const location = response.res?.headers.get("location");
  if (location && !redirectsHome(location)) failures.push({ ...failure(), location });
}

function redirectsHome(location) {
  try {
    return new URL(location, origin).origin === origin;
  } catch {
    return false;
  }
}

// ---- setup: a signed-in customer with one pending order --------------------------------------
async function signUp(email, password) {
  const res = await send({
    method: "POST",
    url: "/api/auth/sign-up/email",
    body: JSON.stringify({ email, password, name: "Fuzz User" }),
    contentType: "application/json",
  });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  const [mail] = await rows(`select text from mail_outbox where "to" = '${email}' order by id desc limit 1`);
  const link = String(mail?.text ?? "").match(/https?:\/\/\S+/)?.[0];
  if (!link) throw new Error("no verification mail");
  const verify = await fetch(link, { redirect: "manual" });
  const setCookie = verify.headers.getSetCookie().map((c) => c.split(";")[0]);
  cookie = setCookie.join("; ");
  if (!cookie) throw new Error("verification did not sign in");
}

let exitCode = 0;
try {
  await signUp(FUZZ_EMAIL, FUZZ_PASSWORD);
  // The operator's session counts as opened with a second factor, as /admin requires
  // (docs/decisions/0073-two-factor.md): the admin actions are reached, not redirected.
  await rows(`update "user" set two_factor_enabled = true where email = '${FUZZ_EMAIL}'`);
  await rows(`update session set two_factor_verified = true`);
  const order = await send({
    method: "POST",
    url: "/api/checkout",
    body: JSON.stringify({ kind: "app", appId: 3, tab: "base" }),
    contentType: "application/json",
  });
  const sessionId = JSON.parse(order.text).url.split("/").pop();
  // No warm-up view of the dashboard pages: a first view must write nothing that is watched either
  // (the onboarding page once stored step 1 on it).

  const postRoutes = routes({ sessionId, email: FUZZ_EMAIL, password: FUZZ_PASSWORD });
  if (mine(null, 0) && !ONLY) {
    for (const route of uncovered(postRoutes, getRoutes({ sessionId })))
      failures.push({ route: "(coverage)", error: `not fuzzed: ${route}` });
  }
  for (const route of postRoutes.filter((route, i) => mine(route, i) && selected(route))) {
    reseed(route.name);
    const before = await snapshot();
    const started = Date.now();
    const statuses = new Map();
    for (let i = 0; i < CASES; i++) {
      const request = invalidCase(route);
      const response = await send(request);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      check(route.name, request, response);
    }
    const after = await snapshot();
    const changed = Object.keys(before).filter((k) => before[k] !== after[k]);
    if (changed.length > 0)
      failures.push({
        route: route.name,
        wrote: changed.map((k) => `${k}: ${before[k]} -> ${after[k]}`),
        ...(await firstWriter(route.name, CASES, () => invalidCase(route))),
      });
    for (let i = 0; i < (route.text.length ? HOSTILE_CASES : 0); i++) {
      const request = hostileCase(route);
      check(`${route.name} (hostile text)`, request, await send(request));
    }
    const line = {
      route: route.name,
      cases: CASES,
      ms: Date.now() - started,
      statuses: Object.fromEntries(statuses),
      wrote: changed,
    };
    summary.push(line);
    console.log(
      `${route.name}: ${CASES} cases, statuses ${JSON.stringify(line.statuses)}, ${changed.length ? `WROTE ${changed}` : "nothing written"}`,
    );
  }

  const gets = getRoutes({ sessionId });
  for (const pathname of gets.filter((route, i) => mine(route, postRoutes.length + i) && selected(route))) {
    reseed(`GET ${pathname}`);
    const before = await snapshot();
    const statuses = new Map();
    const cases = pathname.startsWith("/api/") ? CASES : QUERY_PAGES.has(pathname) ? PAGE_CASES : SWEEP_CASES;
    for (let i = 0; i < cases; i++) {
      const request = getCase(pathname);
      const response = await send(request);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      check(`GET ${pathname}`, request, response);
    }
    const after = await snapshot();
    const changed = Object.keys(before).filter((k) => before[k] !== after[k]);
    if (changed.length > 0)
      failures.push({
        route: `GET ${pathname}`,
        wrote: changed,
        ...(await firstWriter(`GET ${pathname}`, cases, () => getCase(pathname))),
      });
    summary.push({ route: `GET ${pathname}`, cases, statuses: Object.fromEntries(statuses), wrote: changed });
    console.log(`GET ${pathname}: ${cases} query strings, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
  }
} catch (error) {
  failures.push({ route: "(setup)", error: String(error?.stack ?? error) });
} finally {
  listener.close();
  await mod.shutdown();
  rmSync(dataDir, { recursive: true, force: true });
}

if (serverLogStacks.length > 0) failures.push({ route: "(server log)", stacks: serverLogStacks.slice(0, 5) });
const routesFailed = new Set(failures.map((f) => f.route.replace(" (hostile text)", "")));
const passed = summary.filter((s) => !routesFailed.has(s.route)).length;
mkdirSync("test-reports", { recursive: true });
writeFileSync(
  REPORT,
  JSON.stringify({ passed, failed: routesFailed.size, seed: SEED, cases: CASES, summary, failures }, null, 2),
);
if (failures.length > 0) {
  console.error(`\n${failures.length} fuzz failures (first 20), seed ${SEED}; replay: ${REPLAY}`);
  for (const f of failures.slice(0, 20)) console.error(JSON.stringify(f));
  exitCode = 1;
}
const requests = summary.reduce((n, s) => n + s.cases, 0);
console.log(
  `\nfuzz shard ${STRIPE_SHARD ? "stripe" : `${SHARD + 1}/${SHARDS}`}: ${summary.length} routes, ${requests} requests, ${failures.length} failures (seed ${SEED})`,
);
process.exit(exitCode);
