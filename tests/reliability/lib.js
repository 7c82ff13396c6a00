// Shared helpers of the reliability proofs (tests/reliability/durability.js, cluster.js): spawn the
// real production server (`node server.js`), a cookie-keeping HTTP client, sign-up through the dev
// mailbox, polling, and the JSON report `npm test` counts. Plain Node, no test framework.
import { spawn } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TOTP } from "otpauth";
import pg from "pg";
import { SERVER_ENV, SERVER_NODE_FLAGS } from "../../app/server/process/processes.server.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const BUILD_DIR = path.resolve(ROOT, process.env.BUILD_DIR || "build");

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const now = () => performance.now();
export const secs = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** Polls `fn` until it returns a truthy value; generous timeout, never a wall-clock assertion. */
export async function waitFor(what, fn, { timeoutMs = 60_000, intervalMs = 200 } = {}) {
  const start = Date.now();
  let last;
  for (;;) {
    try {
      const value = await fn();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}${last ? `: ${last.message}` : ""}`);
    await sleep(intervalMs);
  }
}

// ---- ports: 3500-3599 (shared machine convention), or REL_PORTS=from-to ----------------------------
const [PORT_FROM, PORT_TO] = (process.env.REL_PORTS ?? "3500-3599").split("-").map(Number);
const taken = new Set();
function canBind(port) {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });
}
export async function freePort() {
  const count = PORT_TO - PORT_FROM + 1;
  const offset = Math.floor(Math.random() * count);
  for (let i = 0; i < count; i++) {
    const port = PORT_FROM + ((offset + i) % count);
    if (taken.has(port)) continue;
    if (await canBind(port)) {
      taken.add(port);
      return port;
    }
  }
  throw new Error(`no free port in ${PORT_FROM}-${PORT_TO}`);
}

// ---- data folders --------------------------------------------------------------------------------
/**
 * Makes `dataDir` a copy of the run's migrated and seeded PGlite folder when `npm test` made one
 * (TEST_PGLITE_TEMPLATE, scripts/test-all.js), and returns it; otherwise leaves it for the server's
 * first boot to create. A server's first boot on an empty folder runs PGlite's initdb and every
 * migration, about twice the CPU of a start on a copied folder, and the proofs and the fuzzer start
 * about ten servers. The first-run proof always starts empty: the first boot is what it proves.
 */
export function fromTemplate(dataDir) {
  const template = process.env.TEST_PGLITE_TEMPLATE;
  if (template) cpSync(template, dataDir, { recursive: true });
  return dataDir;
}

/** A new PGlite data folder under the system's temporary folder (see fromTemplate). */
export const newDataDir = (prefix) => fromTemplate(mkdtempSync(path.join(tmpdir(), prefix)));

// ---- the production server -----------------------------------------------------------------------
const CLEARED = [
  "DATABASE_URL",
  "DATA_DIR",
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "STRIPE_API_URL",
  "MAILCHIMP_API_KEY",
  "MAILCHIMP_LIST_ID",
  "MAILCHIMP_API_URL",
  "SMTP_URL",
  "OPERATOR_EMAILS",
  "TRUSTED_PROXIES",
  "AUTH_SECRET",
  "GOOGLE_CLIENT_ID",
  "GOOGLE_CLIENT_SECRET",
  "WEBINAR_EMBED_URL",
  "WEB_CONCURRENCY",
];
const running = new Set();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/**
 * Spawns the real production entry as production starts it (`node [SERVER_NODE_FLAGS] server.js`
 * with SERVER_ENV); `env` adds to a clean environment. `cwd` (default: the repository) is where it
 * starts, and so where it looks for `.env` and `drizzle/`.
 */
function spawnServer({ name, port, env, cwd = ROOT }) {
  const base = { ...SERVER_ENV, ...process.env };
  for (const key of CLEARED) delete base[key];
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(ROOT, "server.js")], {
    cwd,
    env: {
      ...base,
      NODE_ENV: "production",
      BUILD_DIR,
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: process.env.REL_LOG_LEVEL || "warn",
      PASSWORD_HASH_COST: "test",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  const output = [];
  // Each stream whole, for proofs that read every line the server printed.
  const streams = { stdout: [], stderr: [] };
  const keep = (stream) => (chunk) => {
    output.push(chunk.toString());
    if (output.length > 400) output.shift();
    streams[stream].push(chunk);
    if (process.env.REL_VERBOSE) process.stderr.write(`[${name}] ${chunk}`);
  };
  child.stdout.on("data", keep("stdout"));
  child.stderr.on("data", keep("stderr"));
  const exited = new Promise((resolve) =>
    child.on("exit", (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  return { child, output, streams, exited };
}

/**
 * Runs a server that is expected to stop by itself (a refused start): its exit and everything it
 * printed. Killed after `timeoutMs` if it keeps running: a safety net for a hang, not a speed check,
 * so it allows a fresh data folder's first boot (initdb and every migration) on a busy machine.
 */
export async function runServerToExit({ name, port, env, timeoutMs = 150_000 }) {
  const { child, output, exited } = spawnServer({ name, port, env });
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const exit = await exited;
  clearTimeout(timer);
  return { ...exit, output: output.join("") };
}

/**
 * Spawns `node server.js` and waits for /healthz (at most `timeoutMs`). `env` adds to a clean
 * environment (no inherited database, Stripe or Mailchimp settings).
 */
export async function startServer({ name, port, env, cwd, timeoutMs = 90_000 }) {
  const { child, output, streams, exited } = spawnServer({ name, port, env, cwd });
  let dead = null;
  void exited.then((r) => (dead = r));
  const url = `http://localhost:${port}`; // the Host must match the Origin (React Router CSRF check)
  const started = now();
  await waitFor(
    `${name} /healthz`,
    async () => {
      if (dead) throw new Error(`${name} exited (${JSON.stringify(dead)}): ${output.join("").slice(-2000)}`);
      const res = await fetch(`${url}/healthz`);
      return res.ok;
    },
    { timeoutMs, intervalMs: 100 },
  ).catch((error) => {
    child.kill("SIGKILL");
    throw error;
  });
  const server = {
    name,
    port,
    url,
    child,
    bootMs: now() - started,
    output,
    /** Everything the server wrote to stdout and to stderr so far, each as one text. */
    printed: () => ({ stdout: Buffer.concat(streams.stdout).toString(), stderr: Buffer.concat(streams.stderr).toString() }),
    /** Resolves with { code, signal } when the process exits. */
    exited,
    /** kill -9: no graceful shutdown, no flush, no database close. */
    async kill9() {
      child.kill("SIGKILL");
      return exited;
    },
    async stop() {
      child.kill("SIGTERM");
      return exited;
    },
  };
  return server;
}

// ---- HTTP client with a cookie jar ---------------------------------------------------------------
/**
 * A browser stand-in: keeps cookies, sends the site's Origin on state-changing requests and an
 * X-Forwarded-For (the client IP the server believes when 127.0.0.1 is a trusted proxy).
 */
export class Client {
  constructor({ origin, ip }) {
    this.origin = origin; // PUBLIC_SITE_URL of the server(s)
    this.ip = ip;
    this.jar = new Map();
  }
  cookieHeader() {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  keep(res) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      const key = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0/i.test(line) || value === "") this.jar.delete(key);
      else this.jar.set(key, value);
    }
  }
  async request(base, pathname, { method = "GET", json, form, headers = {}, ip } = {}) {
    const h = { ...headers };
    if (this.jar.size) h.cookie = this.cookieHeader();
    if (method !== "GET") h.origin = this.origin;
    const clientIp = ip ?? this.ip;
    if (clientIp) h["x-forwarded-for"] = clientIp;
    let body;
    if (json !== undefined) {
      h["content-type"] = "application/json";
      body = JSON.stringify(json);
    } else if (form !== undefined) {
      h["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(form).toString();
    }
    const init = { method, headers: h, redirect: "manual" };
    if (body !== undefined) init.body = body;
    const res = await fetch(new URL(pathname, base), init);
    this.keep(res);
    const text = await res.text();
    let data;
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
    return { status: res.status, headers: res.headers, text, data };
  }
}

/** Signs up through Better Auth and follows the verification link from /dev/mailbox.json (signs in). */
export async function signUpVerified(client, base, email, password = "correct-horse-battery") {
  const res = await client.request(base, "/api/auth/sign-up/email", {
    method: "POST",
    json: { email, password, name: email },
  });
  if (res.status !== 200) throw new Error(`sign-up ${res.status}: ${res.text.slice(0, 300)}`);
  const link = await waitFor(`verification mail for ${email}`, async () => {
    const box = await client.request(base, `/dev/mailbox.json?to=${encodeURIComponent(email)}`);
    const mail = (box.data ?? []).find((m) => /verify/i.test(m.subject));
    return mail?.text.match(/https?:\/\/\S+/)?.[0];
  });
  const u = new URL(link);
  const verify = await client.request(base, u.pathname + u.search);
  if (![200, 302].includes(verify.status)) throw new Error(`verify ${verify.status}`);
  if (client.jar.size === 0) throw new Error("verification did not set a session cookie");
  return { email, password };
}

/**
 * Turns on two-factor authentication for the client's signed-in account as Settings does (password,
 * then a first code from the authenticator app), so that /admin takes its session.
 */
export async function enrolTwoFactor(client, base, password = "correct-horse-battery") {
  const enabled = await client.request(base, "/api/auth/two-factor/enable", { method: "POST", json: { password } });
  if (enabled.status !== 200) throw new Error(`two-factor enable ${enabled.status}: ${enabled.text.slice(0, 300)}`);
  const secret = new URL(enabled.data.totpURI).searchParams.get("secret");
  const code = new TOTP({ secret, digits: 6, period: 30, algorithm: "SHA1" }).generate();
  const verified = await client.request(base, "/api/auth/two-factor/verify-totp", { method: "POST", json: { code } });
  if (verified.status !== 200) throw new Error(`two-factor verify ${verified.status}: ${verified.text.slice(0, 300)}`);
}

export const leadBody = (email, i = 0) => ({ firstName: `Rel${i}`, email, phone: `+1555000${String(i).padStart(4, "0")}` });

// ---- PostgreSQL -------------------------------------------------------------------------------
/** Empties the test database like tests/integration/support/db.ts (schemas public, drizzle, pgboss). */
export async function resetPostgres(url) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(
    "drop schema if exists drizzle cascade; drop schema if exists pgboss cascade; drop schema if exists public cascade; create schema public;",
  );
  await admin.end();
}

export async function pgQuery(url, text, params = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** Hides the password of a connection string for printing. */
export const redact = (url) => url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");

// ---- report ---------------------------------------------------------------------------------
export class Report {
  constructor(name) {
    this.name = name;
    this.checks = [];
    this.started = now();
  }
  pass(name, detail = {}) {
    this.checks.push({ name, status: "passed", ...detail });
    console.log(`  PASS ${name}${detail.figures ? `  ${JSON.stringify(detail.figures)}` : ""}`);
  }
  fail(name, error, detail = {}) {
    this.checks.push({ name, status: "failed", error: String(error?.message ?? error), ...detail });
    console.log(`  FAIL ${name}: ${error?.message ?? error}${detail.figures ? `  ${JSON.stringify(detail.figures)}` : ""}`);
  }
  skip(name, reason) {
    this.checks.push({ name, status: "skipped", reason });
    console.log(`  SKIP ${name}: ${reason}`);
  }
  /** Records one check per proven property: `ok` true = passed. */
  check(name, ok, figures, message) {
    if (ok) this.pass(name, { figures });
    else this.fail(name, message ?? "condition not met", { figures });
  }
  write() {
    const count = (s) => this.checks.filter((c) => c.status === s).length;
    const summary = {
      passed: count("passed"),
      failed: count("failed"),
      skipped: count("skipped"),
      durationMs: Math.round(now() - this.started),
      checks: this.checks,
    };
    mkdirSync(path.join(ROOT, "test-reports"), { recursive: true });
    writeFileSync(path.join(ROOT, "test-reports", `${this.name}.json`), `${JSON.stringify(summary, null, 2)}\n`);
    console.log(
      `\n${this.name}: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped in ${secs(summary.durationMs)} -> test-reports/${this.name}.json`,
    );
    return summary;
  }
}

/**
 * PgBouncer in front of `databaseUrl` with `pool_mode = transaction`, as managed PostgreSQL
 * services and most self-run poolers are set up: a client's transaction runs on one server
 * connection, the next one maybe on another, so nothing may rely on session state (a session
 * advisory lock, SET, LISTEN, a named prepared statement). Answers null when pgbouncer is not
 * installed (Debian's package `pgbouncer`). Trust authentication, on 127.0.0.1 only.
 */
export async function startPgBouncer(databaseUrl) {
  const binary = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].find((f) => existsSync(f));
  if (!binary) return null;
  const target = new URL(databaseUrl);
  const user = decodeURIComponent(target.username) || "postgres";
  const dbname = decodeURIComponent(target.pathname.slice(1)) || "postgres";
  const dir = mkdtempSync(path.join(tmpdir(), "rel-pgbouncer-"));
  // PgBouncer refuses to run as root: as root it is started as the postgres user, who must read this.
  chmodSync(dir, 0o755);
  const port = await freePort();
  writeFileSync(path.join(dir, "users.txt"), `"${user}" ""\n`);
  const ini = path.join(dir, "pgbouncer.ini");
  writeFileSync(
    ini,
    [
      "[databases]",
      `${dbname} = host=${target.hostname} port=${target.port || 5432} dbname=${dbname}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(dir, "users.txt")}`,
      "pool_mode = transaction",
      `admin_users = ${user}`,
      "max_client_conn = 400",
      "default_pool_size = 20",
      "",
    ].join("\n"),
  );
  const asRoot = process.getuid?.() === 0;
  const child = spawn(binary, asRoot ? ["-u", "postgres", ini] : [ini], { stdio: ["ignore", "pipe", "pipe"] });
  const output = [];
  child.stdout.on("data", (c) => output.push(c.toString()));
  child.stderr.on("data", (c) => output.push(c.toString()));
  let exited = null;
  child.on("exit", (code, signal) => (exited = { code, signal }));
  const url = `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${encodeURIComponent(dbname)}`;
  await waitFor(
    "pgbouncer answers",
    async () => {
      if (exited) throw new Error(`pgbouncer exited (${JSON.stringify(exited)}): ${output.join("").slice(-1500)}`);
      return (await pgQuery(url, "select 1 as one").catch(() => []))[0]?.one === 1;
    },
    { timeoutMs: 20_000, intervalMs: 100 },
  );
  return {
    url,
    output,
    /** Transactions and queries PgBouncer has passed to `dbname` so far (its admin console's SHOW STATS). */
    async stats() {
      const rows = await pgQuery(url.replace(/\/[^/]*$/, "/pgbouncer"), "show stats");
      const row = rows.find((r) => r.database === dbname);
      return { transactions: Number(row?.total_xact_count ?? 0), queries: Number(row?.total_query_count ?? 0) };
    },
    async close() {
      if (!exited) {
        child.kill("SIGTERM");
        await new Promise((resolve) => child.once("exit", resolve));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
