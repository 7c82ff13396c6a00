// Shared helpers of the load and throughput benchmarks (bench/load.js, bench/throughput.js):
// building, starting the production server on a throw-away data folder, a small HTTP client that
// can bind each simulated user to a loopback source address of its own, sign-up + verification
// through the dev mailbox, and latency statistics.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import pg from "pg";
import { SERVER_ENV, SERVER_NODE_FLAGS } from "../../app/server/process/processes.server.js";

export const BUILD_DIR = path.resolve(process.env.BUILD_DIR || "build");

/** Builds into BUILD_DIR when it holds no server bundle yet. */
function ensureBuild() {
  if (existsSync(path.join(BUILD_DIR, "server/index.js"))) return;
  const r = spawnSync("npx", ["react-router", "build"], { stdio: "inherit", env: { ...process.env, BUILD_DIR } });
  if (r.status !== 0) throw new Error("build failed");
}

/** A free TCP port in [lo, hi] (bench ports are 3600-3699 by default: BENCH_PORTS=lo-hi to change). */
export async function freePort() {
  const [lo, hi] = (process.env.BENCH_PORTS || "3600-3699").split("-").map(Number);
  const span = hi - lo + 1;
  const start = Math.floor(Math.random() * span);
  for (let i = 0; i < span; i++) {
    const port = lo + ((start + i) % span);
    const ok = await new Promise((resolve) => {
      const s = net.createServer();
      s.once("error", () => resolve(false));
      s.listen(port, "0.0.0.0", () => s.close(() => resolve(true)));
    });
    if (ok) return port;
  }
  throw new Error(`no free port in ${lo}-${hi}`);
}

/**
 * Starts `node server.js` (production mode, the BUILD_DIR bundle or `buildDir`) on a fresh PGlite
 * folder, or on `databaseUrl` (BENCH_DATABASE_URL), and waits for /healthz. stop() sends SIGTERM
 * and resolves when the process has exited (the database is closed and flushed by then).
 */
export async function startServer({
  dataDir = mkdtempSync(path.join(tmpdir(), "bench-data-")),
  quiet = true,
  buildDir = BUILD_DIR,
  databaseUrl = process.env.BENCH_DATABASE_URL || "",
  // The checkout whose server.js runs (with buildDir its build): this one by default.
  cwd = undefined,
} = {}) {
  if (buildDir === BUILD_DIR) ensureBuild();
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  // BENCH_NODE_ARGS: extra node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_NODE_ARGS || "").split(" ").filter(Boolean);
  // As production starts it (SERVER_NODE_FLAGS, SERVER_ENV); BENCH_NODE_ARGS come after, so they can override.
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeArgs, "server.js"], {
    cwd,
    env: {
      ...SERVER_ENV,
      ...process.env,
      NODE_ENV: "production",
      BUILD_DIR: buildDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      // BENCH_DATABASE_URL (or the option): an (empty) PostgreSQL database instead of the PGlite folder.
      DATABASE_URL: databaseUrl,
      PUBLIC_SITE_URL: origin,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL || "error",
      SMTP_URL: "",
      STRIPE_SECRET_KEY: "",
      STRIPE_WEBHOOK_SECRET: "",
      MAILCHIMP_API_KEY: "",
      MAILCHIMP_LIST_ID: "",
    },
    stdio: ["ignore", quiet ? "ignore" : "inherit", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
    if (stderr.length > 20_000) stderr = stderr.slice(-10_000);
  });
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  // A benchmark that dies must not leave its server behind.
  process.once("exit", () => {
    if (child.exitCode === null) child.kill("SIGTERM");
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited during start: ${stderr}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) {
        return {
          url,
          origin,
          port,
          dataDir,
          pid: child.pid,
          stderr: () => stderr,
          async stop() {
            if (child.exitCode === null) child.kill("SIGTERM");
            return exited;
          },
          /** Deletes the throw-away data folder (after stop; BENCH_KEEP_DATA=1 keeps it). */
          removeData() {
            if (!process.env.BENCH_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
          },
        };
      }
    } catch {
      /* not up yet */
    }
    await sleep(200);
  }
  child.kill("SIGKILL");
  throw new Error("server did not start");
}

/**
 * An empty database `name` on the PostgreSQL server of `serverUrl` (a URL with or without a
 * database; that database, else `postgres`, is only used to drop and create), dropped first if a
 * run left it behind. Gives its URL and a function that drops it.
 */
export async function emptyPostgresDatabase(serverUrl, name) {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  const adminUrl = new URL(serverUrl);
  if (adminUrl.pathname === "" || adminUrl.pathname === "/") adminUrl.pathname = "/postgres";
  const admin = async (statement) => {
    const client = new pg.Client({ connectionString: adminUrl.href });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => admin(`drop database if exists ${name} with (force)`) };
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- client ------------------------------------------------------------------------------------

/** What the simulated browsers accept (BENCH_ACCEPT_ENCODING=identity: no compression). */
const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING || "gzip, br";

// One keep-alive pool; Node keys pooled sockets by localAddress too, so users never share a socket.
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 4096 });

let ipCounter = Math.floor(Math.random() * 1000) * 1000;
/** A loopback source address no other simulated user of this process has (127.1.0.0 upwards). */
export function freshIp() {
  ipCounter += 1;
  const n = 65536 + (ipCounter % (254 * 65536));
  return `127.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255 || 1}`;
}

/**
 * One HTTP request to `base` (http://127.0.0.1:port). `body`: an object is sent as JSON, a
 * URLSearchParams as a form, a string as is. Never rejects: a network failure is status 0.
 * Returns status, headers, setCookies, text and the wall time in ms (to the last body byte).
 * `newConnection`: on a connection of its own, as a new visitor arrives, not a kept-alive one.
 */
export function request(
  base,
  { method = "GET", path: p, ip, headers = {}, body, host, timeoutMs = 60_000, newConnection = false },
) {
  const u = new URL(p, base);
  let payload;
  const h = { ...headers };
  if (body instanceof URLSearchParams) {
    payload = body.toString();
    h["content-type"] = "application/x-www-form-urlencoded";
  } else if (typeof body === "string") payload = body;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    h["content-type"] = "application/json";
  }
  if (payload !== undefined) h["content-length"] = String(Buffer.byteLength(payload));
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (r) => {
      r.ms = performance.now() - started;
      resolve(r);
    };
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method,
        agent: newConnection ? false : agent,
        localAddress: ip,
        headers: { host: host ?? u.host, "accept-encoding": ACCEPT_ENCODING, ...h },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          done({
            status: res.statusCode ?? 0,
            headers: res.headers,
            setCookies: res.headers["set-cookie"] ?? [],
            raw: Buffer.concat(chunks),
            // Decoded on first use: most load requests never read the body.
            get text() {
              return decode(this.raw, res.headers["content-encoding"]);
            },
          }),
        );
        res.on("error", (error) => done({ status: 0, error: String(error), headers: {}, setCookies: [], text: "" }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (error) => done({ status: 0, error: error.code || String(error), headers: {}, setCookies: [], text: "" }));
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

function decode(raw, encoding) {
  if (encoding === "gzip") return gunzipSync(raw).toString("utf8");
  if (encoding === "br") return brotliDecompressSync(raw).toString("utf8");
  if (encoding === "deflate") return inflateSync(raw).toString("utf8");
  return raw.toString("utf8");
}

/** `name=value` pairs of Set-Cookie headers as a Cookie header (later values win, cleared ones go). */
export function cookieHeader(setCookies, previous = "") {
  const jar = new Map(
    previous
      .split(/;\s*/)
      .filter(Boolean)
      .map((pair) => [pair.split("=")[0], pair]),
  );
  for (const cookie of setCookies) {
    const pair = cookie.split(";")[0].trim();
    const name = pair.split("=")[0];
    if (/max-age=0/i.test(cookie) || pair.endsWith("=")) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

let emailCounter = 0;
export function uniqueEmail(prefix = "bench") {
  emailCounter += 1;
  return `${prefix}-${Date.now().toString(36)}-${process.pid}-${emailCounter}@example.com`;
}

/**
 * Sign-up through the API, then the verification link from the dev mailbox (which signs the user
 * in). `record(group, response)` sees every request. Returns { email, cookie } or throws.
 */
export async function signUpVerified(
  server,
  { ip, email = uniqueEmail(), password = "correct-horse-battery", record = () => {} },
) {
  const send = async (group, opts) => {
    const res = await request(server.url, { ip, host: new URL(server.origin).host, ...opts });
    record(group, res);
    return res;
  };
  const res = await send("auth: sign-up", {
    method: "POST",
    path: "/api/auth/sign-up/email",
    headers: { origin: server.origin },
    body: { email, password, name: email },
  });
  if (res.status !== 200) throw new Error(`sign-up ${res.status} ${res.error ?? res.text.slice(0, 200)}`);
  let link;
  for (let attempt = 0; attempt < 100 && !link; attempt++) {
    const m = await send("auth: mailbox", { path: `/dev/mailbox.json?to=${encodeURIComponent(email)}` });
    if (m.status === 200) {
      const mail = JSON.parse(m.text).find((x) => /verify/i.test(x.subject));
      link = mail?.text.match(/https?:\/\/\S+/)?.[0];
    }
    if (!link) await sleep(100 + attempt * 20);
  }
  if (!link) throw new Error(`no verification mail for ${email}`);
  const u = new URL(link);
  const verify = await send("auth: verify", { path: u.pathname + u.search });
  if (verify.status !== 200 && verify.status !== 302) throw new Error(`verify ${verify.status}`);
  const cookie = cookieHeader(verify.setCookies);
  if (!cookie) throw new Error("verification set no session cookie");
  return { email, password, cookie };
}

// ---- statistics ----------------------------------------------------------------------------------

/**
 * A fresh account (own source address), verified, with its dashboard trial started: the signed-in
 * customer of the dashboard benchmarks. `trialStatus` is the start's answer (302 when it started).
 */
export async function signedInWithTrial(server) {
  const user = await signUpVerified(server, { ip: freshIp() });
  const host = new URL(server.origin).host;
  const start = await request(server.url, {
    method: "POST",
    path: "/dashboard",
    host,
    headers: { cookie: user.cookie, origin: server.origin },
    body: new URLSearchParams({ intent: "start-trial", plan: "starter" }),
  });
  return { cookie: cookieHeader(start.setCookies, user.cookie), host, trialStatus: start.status };
}

/**
 * `n` accounts as signedInWithTrial makes them, a few sign-ups at a time (each hashes a password,
 * and the server is the one measured next), each with a loopback source address of its own (`ip`).
 */
export async function trialAccounts(server, n) {
  const accounts = [];
  for (let i = 0; i < n; i += 4) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(4, n - i) }, async () => {
        const account = await signedInWithTrial(server);
        if (account.trialStatus !== 302) throw new Error(`trial start answered ${account.trialStatus}`);
        return { ...account, ip: freshIp() };
      }),
    );
    accounts.push(...batch);
  }
  return accounts;
}

/** The signed-in dashboard pages the traffic benchmarks visit. */
export const DASHBOARD_PAGES = [
  "/dashboard",
  "/dashboard/billing",
  "/dashboard/addons",
  "/dashboard/scaling",
  "/dashboard/onboarding",
];

/**
 * Many accounts' traffic: request n goes to account n mod N, and each account asks for `pages` in
 * turn (starting at a different page per account), so consecutive requests are different accounts
 * and an account repeats a page only every N x pages requests. `next()` gives the next visit.
 */
export function manyAccountsTraffic(accounts, pages) {
  let n = 0;
  const seen = new Set();
  let firstViews = 0;
  return {
    next() {
      const i = n++;
      const a = i % accounts.length;
      const round = Math.floor(i / accounts.length);
      const visit = { account: accounts[a], path: pages[(round + a) % pages.length] };
      const key = `${a} ${visit.path}`;
      if (!seen.has(key)) {
        seen.add(key);
        firstViews++;
      }
      return visit;
    },
    counts: () => ({ requests: n, firstViews }),
  };
}

/** The p-th percentile (0-100, nearest rank) of an ascending array. */
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function summarise(values) {
  const s = Float64Array.from(values).sort();
  const sum = s.reduce((a, b) => a + b, 0);
  return {
    n: s.length,
    mean: s.length ? sum / s.length : NaN,
    p50: percentile(s, 50),
    p95: percentile(s, 95),
    p99: percentile(s, 99),
    max: s.length ? s[s.length - 1] : NaN,
  };
}

export const fmt = (ms) => (Number.isFinite(ms) ? (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1)) : "-");

/** A plain text table: rows of strings/numbers, first column left-aligned, the rest right-aligned. */
export function table(header, rows) {
  const all = [header, ...rows].map((r) => r.map(String));
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ");
  return [line(all[0]), widths.map((w) => "-".repeat(w)).join("-|-"), ...all.slice(1).map(line)].join("\n");
}

export async function loadAverage() {
  const { loadavg, cpus } = await import("node:os");
  return { loadavg: loadavg().map((x) => Number(x.toFixed(2))), cpus: cpus().length };
}

/**
 * CPU seconds (user + system) used so far by the server (`pid` and its children, the workers of
 * WEB_CONCURRENCY) and by PostgreSQL's processes on this machine, read from /proc (Linux; null
 * elsewhere). Two readings around a run give the CPU each side spent per request.
 */
export async function cpuSeconds(pid) {
  let entries;
  try {
    entries = readdirSync("/proc").filter((e) => /^\d+$/.test(e));
  } catch {
    return null;
  }
  const ticksPerSecond = 100; // USER_HZ on Linux
  let server = 0;
  let postgres = 0;
  for (const entry of entries) {
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    // Fields after the command name: state ppid ... utime (12th) stime (13th).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const seconds = (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
    if (Number(entry) === pid || Number(fields[1]) === pid) server += seconds;
    else if (comm.startsWith("postgres")) postgres += seconds;
  }
  return { server, postgres };
}

/**
 * The largest accept queue of the TCP listener on `port` seen while it runs: connections the kernel
 * has completed that the server has not accepted yet (/proc/net/tcp, Linux; null elsewhere). Since
 * libuv 1.45 a Node process accepts one connection per event-loop turn, so a saturated server
 * leaves new connections waiting here while it answers its open ones (docs/decisions/0018, 0026).
 */
export function watchAcceptQueue(port, everyMs = 500) {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  let max = null;
  const sample = async () => {
    for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
      let text;
      try {
        text = await readFile(file, "utf8");
      } catch {
        continue;
      }
      for (const line of text.split("\n").slice(1)) {
        const f = line.trim().split(/\s+/);
        if (f[3] !== "0A" || !f[1]?.endsWith(`:${hexPort}`)) continue;
        const waiting = parseInt(f[4].split(":")[1], 16);
        max = Math.max(max ?? 0, waiting);
      }
    }
  };
  const timer = setInterval(() => void sample(), everyMs);
  return {
    stop() {
      clearInterval(timer);
      return max;
    },
  };
}
