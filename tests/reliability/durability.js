// Durability proof: committed writes survive kill -9.
// For PGlite (always) and PostgreSQL (when TEST_DATABASE_URL is set; that database is emptied first),
// the real production server (`node server.js`) is spawned and driven through HTTP only:
//   start -> a second server on the same PGlite folder, and one on the same port, must refuse to
//   start (exit 1, one line saying why, no stack trace); on PGlite also, in a server of its own,
//   faults outside any request (inject-faults.mjs): a stray rejection is logged and serving goes on,
//   a stray throw stops the server like SIGTERM (exit 1, database closed)
//   SIGTERM with page loads queued answers them and exits 0; the folder opens again, and SIGINT exits 0
//   -> sign up + verify (dev mailbox) -> start the trial -> kill -9 -> restart
//   -> create and pay a plan order (local checkout) -> kill -9 -> restart
//   -> submit a lead -> kill -9 -> restart
//   -> 20 concurrent lead submissions, kill -9 once some are acknowledged -> restart
// then (server killed again) the database is opened directly: the trial, the paid order (and its one
// payment event), the lead and every acknowledged burst lead are there, none twice.
//
// Usage: BUILD_DIR=/tmp/build node tests/reliability/durability.js   (after the build)
//        TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/rel_a ... adds the PostgreSQL run.
// Env: DURABILITY_ENGINES (default "pglite,postgres"; CI's PostgreSQL pass names only postgres, the
//      PGlite run having run in `npm test` already), REL_BURST (20), REL_BURST_KILL_AFTER (acks before kill -9, default 5), REL_VERBOSE=1 (server logs).
// Writes test-reports/durability.json ({ passed, failed, skipped, checks }).
import { existsSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { lockDataDir } from "../../app/server/db/data-dir-lock.server.js";
import {
  BUILD_DIR,
  Client,
  freePort,
  leadBody,
  newDataDir,
  now,
  pgQuery,
  redact,
  Report,
  resetPostgres,
  runServerToExit,
  secs,
  signUpVerified,
  startServer,
  waitFor,
} from "./lib.js";

const BURST = Number(process.env.REL_BURST ?? 20);
const KILL_AFTER = Number(process.env.REL_BURST_KILL_AFTER ?? 5);
const report = new Report("durability");

if (!existsSync(path.join(BUILD_DIR, "server/index.js"))) {
  console.error(`No build in ${BUILD_DIR}: run \`BUILD_DIR=${BUILD_DIR} npx react-router build\` first.`);
  process.exit(1);
}

const run = Date.now().toString(36);
/** True when a process's output holds no stack trace. */
const noTrace = (out) => !/\n\s+at .+:\d+:\d+\)?\n/.test(out);

/**
 * Errors raised outside any request (inject-faults.mjs, loaded with --import, on SIGUSR2): a
 * rejection nobody awaits is logged and the server keeps serving; a throw stops the server the way
 * SIGTERM does, exit 1, with the database closed (its folder lock released).
 */
async function faultsOutsideRequests(env) {
  const dataDir = newDataDir("rel-faults-");
  const server = await startServer({
    name: "pglite-faults",
    port: await freePort(),
    env: {
      ...env,
      DATA_DIR: dataDir,
      NODE_OPTIONS: `--import=${pathToFileURL(path.join(import.meta.dirname, "inject-faults.mjs")).href}`,
      LOG_LEVEL: "info",
    },
  });
  const logged = (text) => server.output.join("").includes(text);
  try {
    server.child.kill("SIGUSR2");
    await waitFor("rejection logged", async () => logged("unhandled promise rejection"), { timeoutMs: 10_000 });
    const health = await fetch(`${server.url}/healthz`);
    report.check("pglite: a rejection nobody awaits is logged and the server keeps serving", health.ok, {
      healthz: health.status,
    });
    server.child.kill("SIGUSR2");
    const exit = await Promise.race([server.exited, new Promise((r) => setTimeout(() => r(null), 30_000))]);
    report.check(
      "pglite: a throw outside any request stops the server like SIGTERM (exit 1, database closed)",
      exit?.code === 1 &&
        logged("uncaught exception: stopping") &&
        logged('"shutting down"') &&
        !existsSync(path.join(dataDir, "server.lock")),
      { exit },
      server.output.join("").slice(-600),
    );
  } finally {
    server.child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A TCP connection to the server on this machine, once the kernel has accepted it. */
function connected(port) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port }, () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Sends `request` on `socket`; answers the response's status code, or the socket's error code. */
function statusOf(socket, request) {
  return new Promise((resolve) => {
    let head = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => {
      head += chunk;
    });
    socket.once("error", (error) => resolve(String(error.code ?? error.message)));
    socket.once("close", () => resolve(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? "closed without an answer"));
    socket.write(request);
  });
}

/**
 * SIGTERM while requests are queued: 60 signed-in page loads, each on a connection of its own that
 * the kernel has accepted before SIGTERM is sent (so a loaded machine cannot delay a connection past
 * the drain and make the check about the client). Every one must be answered (server.js drains the
 * accept queue before closing the socket; without that, most of them got ECONNRESET), and the server
 * must exit 0.
 */
async function sigtermUnderLoad(env) {
  const dataDir = newDataDir("rel-sigterm-");
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const server = await startServer({ name: "pglite-sigterm", port, env: { ...env, DATA_DIR: dataDir, PUBLIC_SITE_URL: origin } });
  try {
    const client = new Client({ origin, ip: "10.3.0.1" });
    await signUpVerified(client, server.url, `rel-sigterm-${run}@example.com`);
    await client.request(server.url, "/dashboard", { method: "POST", form: { intent: "start-trial", plan: "starter" } });
    const sockets = await Promise.all(Array.from({ length: 60 }, () => connected(port)));
    const request =
      `GET /dashboard/billing HTTP/1.1\r\nHost: localhost:${port}\r\nCookie: ${client.cookieHeader()}\r\n` +
      `X-Forwarded-For: 10.3.0.1\r\nConnection: close\r\n\r\n`;
    const answers = sockets.map((socket) => statusOf(socket, request));
    server.child.kill("SIGTERM");
    const statuses = await Promise.all(answers);
    const exit = await server.exited;
    const counts = {};
    for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
    report.check(
      "pglite: SIGTERM with 60 page loads queued answers every one, then exits 0",
      counts["200"] === 60 && exit.code === 0,
      { answers: counts, exit },
    );

    // The folder a clean stop left opens again: the seed adds nothing twice, the session is still
    // good, and SIGINT (Ctrl-C in a terminal) stops the server as cleanly as SIGTERM, saying so (at
    // info, where that line is written).
    const again = await startServer({
      name: "pglite-after-sigterm",
      port,
      env: { ...env, DATA_DIR: dataDir, PUBLIC_SITE_URL: origin, LOG_LEVEL: "info" },
    });
    try {
      const apps = await (await fetch(`${again.url}/apps`)).text();
      const billing = await client.request(again.url, "/dashboard/billing");
      again.child.kill("SIGINT");
      const stopped = await again.exited;
      const said = again.output
        .join("")
        .split("\n")
        .some((line) => line.includes('"msg":"shutting down"') && line.includes('"signal":"SIGINT"'));
      report.check(
        "pglite: a restart on the folder SIGTERM closed serves the 181 apps and the session, and SIGINT exits 0",
        apps.includes("181 solutions available") &&
          billing.status === 200 &&
          stopped.code === 0 &&
          stopped.signal === null &&
          said,
        { apps181: apps.includes("181 solutions available"), billing: billing.status, exit: stopped, saidShuttingDown: said },
      );
    } finally {
      again.child.kill("SIGKILL");
    }
  } finally {
    server.child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function engineRun(engine) {
  console.log(`\n== ${engine}${engine === "postgres" ? ` (${redact(process.env.TEST_DATABASE_URL)})` : ""} ==`);
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  let dataDir;
  let pgSettings;
  const env = { PUBLIC_SITE_URL: origin, TRUSTED_PROXIES: "127.0.0.1" };
  if (engine === "pglite") {
    dataDir = newDataDir("rel-durability-");
    env.DATA_DIR = dataDir;
  } else {
    await resetPostgres(process.env.TEST_DATABASE_URL);
    env.DATABASE_URL = process.env.TEST_DATABASE_URL;
    // fsync and synchronous_commit, recorded: durability depends on them, and they belong to the
    // PostgreSQL server, not to the product.
    const settings = await pgQuery(
      process.env.TEST_DATABASE_URL,
      "select name, setting from pg_settings where name in ('fsync', 'synchronous_commit', 'full_page_writes')",
    );
    pgSettings = Object.fromEntries(settings.map((r) => [r.name, r.setting]));
    console.log(`  server settings: ${JSON.stringify(pgSettings)}`);
  }
  const figures = { engine, boots: [], deadAfterAnswerMs: [] };
  let generation = 0;
  const boot = async () => {
    const server = await startServer({ name: `${engine}-${++generation}`, port, env });
    figures.boots.push(Math.round(server.bootMs));
    return server;
  };
  /** kill -9 right after a committed answer; records the delay between the answer and the kill. */
  const killNow = async (server, answeredAt) => {
    const exit = await server.kill9();
    figures.deadAfterAnswerMs.push(Math.round(now() - answeredAt));
    if (exit.signal !== "SIGKILL") throw new Error(`${server.name} did not die by SIGKILL: ${JSON.stringify(exit)}`);
  };

  const email = `rel-dur-${engine}-${run}@example.com`;
  const client = new Client({ origin, ip: "10.1.0.1" });
  const leadEmail = `rel-dur-lead-${engine}-${run}@example.com`;
  let sessionId;
  const burst = [];
  let server;
  try {
    // 1. account + trial
    server = await boot();
    // Refused starts: one line saying why, exit 1, no stack trace, the running server untouched.
    if (engine === "pglite") {
      // PGlite takes no lock of its own: a second process on the folder would overwrite the first's
      // commits when it closes. The server refuses to start instead (ADR 0020).
      const second = await runServerToExit({ name: "pglite-second", port: await freePort(), env });
      report.check(
        "pglite: a second server on the same DATA_DIR refuses to start while the first runs",
        second.code === 1 && second.output.includes("is in use by another server process") && noTrace(second.output),
        { exit: second.code, signal: second.signal },
        second.output.slice(-600),
      );
    }
    if (engine === "pglite") {
      await faultsOutsideRequests(env);
      await sigtermUnderLoad(env);
    }
    const otherFolder = newDataDir("rel-port-");
    const taken = await runServerToExit({
      name: `${engine}-same-port`,
      port,
      env: engine === "pglite" ? { ...env, DATA_DIR: otherFolder } : env,
    });
    rmSync(otherFolder, { recursive: true, force: true });
    report.check(
      `${engine}: a second server on a port in use exits 1 with the reason`,
      taken.code === 1 && taken.output.includes(`cannot listen: port ${port}`) && noTrace(taken.output),
      { exit: taken.code, signal: taken.signal },
      taken.output.slice(-600),
    );
    await signUpVerified(client, server.url, email);
    const trial = await client.request(server.url, "/dashboard", {
      method: "POST",
      form: { intent: "start-trial", plan: "starter" },
    });
    const trialAt = now();
    if (trial.status !== 302 || !/trial-started/.test(trial.headers.get("location") ?? ""))
      throw new Error(`start-trial answered ${trial.status} ${trial.headers.get("location") ?? trial.text.slice(0, 2000)}`);
    await killNow(server, trialAt);

    // 2. order created and paid
    server = await boot();
    const checkout = await client.request(server.url, "/api/checkout", {
      method: "POST",
      // A plan is charged at checkout (an app's build or subscription starts with its free trial).
      json: { kind: "plan", planType: "basic" },
    });
    if (checkout.status !== 200 || !checkout.data?.url)
      throw new Error(`checkout ${checkout.status}: ${checkout.text.slice(0, 200)}`);
    const checkoutPath = new URL(checkout.data.url, origin).pathname;
    sessionId = decodeURIComponent(checkoutPath.split("/").pop());
    const pay = await client.request(server.url, checkoutPath, {
      method: "POST",
      form: { card: "4242424242424242", expiry: "12/40", cvc: "123" },
    });
    const paidAt = now();
    if (pay.status !== 302 || !/\/dashboard\/billing\?success=true/.test(pay.headers.get("location") ?? ""))
      throw new Error(`payment answered ${pay.status} ${pay.headers.get("location") ?? pay.text.slice(0, 200)}`);
    await killNow(server, paidAt);

    // 3. lead
    server = await boot();
    const lead = await client.request(server.url, "/api/callback", { method: "POST", json: leadBody(leadEmail), ip: "10.2.0.1" });
    const leadAt = now();
    if (lead.status !== 200 || lead.data?.ok !== true) throw new Error(`callback ${lead.status}: ${lead.text.slice(0, 200)}`);
    await killNow(server, leadAt);

    // 4. after the restart, through HTTP: the session (a committed row too) and the trial are there
    server = await boot();
    const dash = await client.request(server.url, "/dashboard");
    report.check(
      `${engine}: session survives kill -9 (GET /dashboard still signed in)`,
      dash.status === 200 && dash.text.includes(email),
      {
        status: dash.status,
      },
    );
    const again = await client.request(server.url, "/dashboard", {
      method: "POST",
      form: { intent: "start-trial", plan: "starter" },
    });
    const httpTrial = again.status === 409;

    // 5. burst: kill -9 while concurrent lead submissions are in flight
    let acked = 0;
    let killStarted = false;
    let killedAt = 0;
    const burstStart = now();
    const killed = new Promise((resolve) => {
      const submissions = Array.from({ length: BURST }, (_, i) => {
        const entry = { email: `rel-burst-${engine}-${run}-${i}@example.com`, status: null, error: null };
        burst.push(entry);
        return client
          .request(server.url, "/api/callback", { method: "POST", json: leadBody(entry.email, i), ip: `10.3.${i}.1` })
          .then((res) => {
            entry.status = res.status;
            entry.at = now();
            if (res.status === 200) acked++;
            if (acked >= KILL_AFTER && !killStarted) {
              killStarted = true;
              killedAt = now();
              void server.kill9().then(resolve);
            }
          })
          .catch((error) => {
            entry.error = error.cause?.code ?? error.message;
          });
      });
      void Promise.all(submissions).then(() => {
        if (!killStarted) {
          killStarted = true;
          killedAt = now();
          void server.kill9().then(resolve);
        }
      });
    });
    await killed;
    await new Promise((r) => setTimeout(r, 200)); // let the aborted fetches settle
    const ackedEmails = burst.filter((b) => b.status === 200).map((b) => b.email);
    const burstFigures = {
      sent: BURST,
      acknowledged200: ackedEmails.length,
      otherStatus: burst.filter((b) => b.status !== null && b.status !== 200).map((b) => b.status),
      cutOff: burst.filter((b) => b.status === null).length,
      ackedAfterKill: burst.filter((b) => b.status === 200 && b.at > killedAt).length,
      killAtMsIntoBurst: Math.round(killedAt - burstStart),
    };

    // 6. restart once more on the crashed data (boot must recover), then kill -9 and read the database
    server = await boot();
    const health = await client.request(server.url, "/healthz");
    await server.kill9();
    server = undefined;

    const rows = await openAndRead(engine, dataDir, { email, sessionId, leadEmail, burstEmails: burst.map((b) => b.email) });
    const t = rows.trial;
    report.check(
      `${engine}: trial start survives kill -9`,
      t && t.trial_started === true && t.selected_plan === "starter" && httpTrial,
      { trialRow: Boolean(t), restartAnswer409: again.status },
    );
    const o = rows.order;
    report.check(`${engine}: paid order survives kill -9`, o && o.status === "paid" && Number(rows.paymentEvents) === 1, {
      orderStatus: o?.status ?? null,
      paymentEvents: Number(rows.paymentEvents),
    });
    report.check(`${engine}: lead survives kill -9`, Number(rows.leadCount) === 1, { leadRows: Number(rows.leadCount) });
    const counts = new Map(rows.burst.map((r) => [r.email, Number(r.n)]));
    const lost = ackedEmails.filter((e) => (counts.get(e) ?? 0) < 1);
    const duplicated = [...counts].filter(([, n]) => n > 1).map(([e]) => e);
    const stored = [...counts.values()].filter((n) => n >= 1).length;
    const burstOut = { ...burstFigures, storedAfterRestart: stored, lost: lost.length, duplicated: duplicated.length };
    report.check(
      `${engine}: burst + kill -9: no acknowledged lead lost`,
      lost.length === 0 && ackedEmails.length > 0 && health.status === 200,
      burstOut,
      lost.length
        ? `lost: ${lost.join(", ")}`
        : ackedEmails.length === 0
          ? "no submission was acknowledged"
          : "restart unhealthy",
    );
    report.check(
      `${engine}: burst + kill -9: no lead duplicated`,
      duplicated.length === 0,
      { duplicated: duplicated.length },
      `duplicated: ${duplicated.join(", ")}`,
    );
    console.log(
      `  figures: boots ${figures.boots.map((b) => secs(b)).join(", ")}; process dead ${figures.deadAfterAnswerMs.join("/")} ms after each committed answer (SIGKILL sent at once)`,
    );
    report.checks.push({ name: `${engine}: figures`, status: "info", figures: { ...figures, burst: burstOut, pgSettings } });
  } catch (error) {
    report.fail(`${engine}: scenario`, error, { serverLog: server?.output.join("").slice(-3000) });
  } finally {
    if (server) await server.kill9();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Opens the database directly (the server is dead) and reads what the scenario committed. */
async function openAndRead(engine, dataDir, { email, sessionId, leadEmail, burstEmails }) {
  let query;
  let close;
  if (engine === "pglite") {
    // The folder's lock first, as every tool that opens one takes it (ADR 0020): the killed
    // server's lock is stale and taken over; a live holder would be refused instead.
    const unlock = lockDataDir(dataDir);
    const db = new PGlite({ dataDir });
    await db.waitReady;
    query = async (text, params) => (await db.query(text, params)).rows;
    close = async () => {
      await db.close();
      unlock();
    };
  } else {
    const url = process.env.TEST_DATABASE_URL;
    query = (text, params) => pgQuery(url, text, params);
    close = async () => {};
  }
  try {
    const [trial] = await query(
      `select t.trial_started, t.selected_plan from trial_access t join "user" u on u.id = t.user_id where u.email = $1`,
      [email],
    );
    const [order] = await query(`select id, status from orders where provider_session_id = $1`, [sessionId]);
    const [pe] = await query(`select count(*)::int as n from payment_events where order_id = $1`, [order?.id ?? ""]);
    const [lead] = await query(`select count(*)::int as n from leads where email = $1`, [leadEmail]);
    const burst = await query(`select email, count(*)::int as n from leads where email = any($1) group by email`, [burstEmails]);
    return { trial, order, paymentEvents: pe.n, leadCount: lead.n, burst };
  } finally {
    await close();
  }
}

console.log(`durability proof: build ${BUILD_DIR}, burst ${BURST} (kill -9 after ${KILL_AFTER} acknowledged)`);
const ENGINES = (process.env.DURABILITY_ENGINES ?? "pglite,postgres").split(",").map((e) => e.trim());
if (ENGINES.includes("pglite")) await engineRun("pglite");
if (!ENGINES.includes("postgres")) report.skip("postgres: durability", "not in DURABILITY_ENGINES");
else if (process.env.TEST_DATABASE_URL) await engineRun("postgres");
else report.skip("postgres: durability", "TEST_DATABASE_URL not set");
const summary = report.write();
process.exit(summary.failed > 0 || summary.passed === 0 ? 1 : 0);
