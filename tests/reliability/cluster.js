// Cluster proof: two production servers (`node server.js`) on one
// PostgreSQL database behind a round-robin proxy written here (node:http; each request goes to the
// next upstream; X-Forwarded-For appended; both servers trust 127.0.0.1). Proves:
//   (a) a session made through one instance is valid on the other;
//   (b) the per-IP sign-in rate limit is shared: 11 wrong sign-ins alternating -> the 11th is 429;
//   (c) 30 leads are each delivered to (fake) Mailchimp exactly once although both run workers;
//   (d) the same signed checkout.session.completed event delivered to BOTH instances concurrently,
//       several times, fulfils each order once (SQL: one payment_events row, orders.status paid);
//   (e) one server with WEB_CONCURRENCY=2 runs two worker processes on one port: a worker killed with
//       SIGKILL is replaced and sessions keep working; SIGTERM stops the primary and every worker.
// The servers reach PostgreSQL through PgBouncer in transaction pooling when pgbouncer is installed
// (Debian's package; CLUSTER_DIRECT=1 connects them directly instead): both boot at once through it on
// the empty database, so the migrations, the job queue and every request above are proven to need
// no session state, as ADR 0069 requires; (f) checks that they did go through it. The checks read
// the database directly.
// Needs PostgreSQL: without TEST_DATABASE_URL it prints 'skipped: needs PostgreSQL'. The database
// named there is emptied (schemas public, drizzle, pgboss dropped) first.
//
// Usage: BUILD_DIR=/tmp/build TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/rel_b node tests/reliability/cluster.js
// Env: REL_LEADS (30), REL_ORDERS (3), REL_WEBHOOK_ROUNDS (3), REL_VERBOSE=1 (server logs).
// Writes test-reports/cluster.json ({ passed, failed, skipped, checks }).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import path from "node:path";
import { Stripe } from "stripe";
import { startFakeStripe } from "../support/fake-stripe.js";
import { FakeMailchimp } from "../support/fake-mailchimp.js";
import {
  BUILD_DIR,
  Client,
  freePort,
  leadBody,
  now,
  pgQuery,
  redact,
  Report,
  resetPostgres,
  secs,
  signUpVerified,
  sleep,
  startPgBouncer,
  startServer,
  waitFor,
} from "./lib.js";

const LEADS = Number(process.env.REL_LEADS ?? 30);
const ORDERS = Number(process.env.REL_ORDERS ?? 3);
const ROUNDS = Number(process.env.REL_WEBHOOK_ROUNDS ?? 3);
const WEBHOOK_SECRET = "whsec_x";
const MAILCHIMP = { apiKey: "key-us1", listId: "list" };
const report = new Report("cluster");
const DB = process.env.TEST_DATABASE_URL;

if (!DB) {
  console.log("skipped: needs PostgreSQL (set TEST_DATABASE_URL)");
  report.skip("cluster: two instances on one PostgreSQL", "needs PostgreSQL (TEST_DATABASE_URL)");
  report.write();
  process.exit(0);
}
if (!existsSync(path.join(BUILD_DIR, "server/index.js"))) {
  console.error(`No build in ${BUILD_DIR}: run \`BUILD_DIR=${BUILD_DIR} npx react-router build\` first.`);
  process.exit(1);
}

/** Round-robin reverse proxy: alternates upstreams per request, streams bodies, appends X-Forwarded-For. */
async function startProxy(port, upstreams) {
  let next = 0;
  const served = {};
  const server = createServer((req, res) => {
    const upstream = upstreams[next++ % upstreams.length];
    served[upstream.name] = (served[upstream.name] ?? 0) + 1;
    const prior = req.headers["x-forwarded-for"];
    const peer = req.socket.remoteAddress?.replace(/^::ffff:/, "") ?? "";
    const headers = { ...req.headers, "x-forwarded-for": prior ? `${prior}, ${peer}` : peer };
    const up = httpRequest({ host: "127.0.0.1", port: upstream.port, method: req.method, path: req.url, headers }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, { ...upRes.headers, "x-upstream": upstream.name });
      upRes.pipe(res);
    });
    up.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain", "x-upstream": upstream.name });
      res.end(`proxy: ${error.message}`);
    });
    req.pipe(up);
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { served, close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

const run = Date.now().toString(36);
let eventCounter = 0;
await resetPostgres(DB);
const bouncer = process.env.CLUSTER_DIRECT === "1" ? null : await startPgBouncer(DB);
const via = bouncer ? "through PgBouncer (pool_mode = transaction)" : "directly";
console.log(
  `cluster proof: build ${BUILD_DIR}, database ${redact(DB)} ${via}, ${LEADS} leads, ${ORDERS} orders x ${ROUNDS} rounds`,
);
const mailchimp = await new FakeMailchimp(MAILCHIMP.apiKey, MAILCHIMP.listId).start();
const stripeFake = await startFakeStripe();
// Payments taken at checkout: the webhook proof counts one payment per order.
stripeFake.captureAtOnce = true;
const proxyPort = await freePort();
const site = `http://localhost:${proxyPort}`;
const common = {
  DATABASE_URL: bouncer?.url ?? DB,
  PUBLIC_SITE_URL: site,
  TRUSTED_PROXIES: "127.0.0.1",
  MAILCHIMP_API_KEY: MAILCHIMP.apiKey,
  MAILCHIMP_LIST_ID: MAILCHIMP.listId,
  STRIPE_SECRET_KEY: "sk_test_x",
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_API_URL: stripeFake.url,
};
const servers = [];
let proxy;
try {
  // Both at once on the empty database, as a deploy of two replicas would: the migrations' advisory
  // lock, the seeds' upserts and the shared generated secret must make that safe.
  const ports = [await freePort(), await freePort()];
  servers.push(
    ...(await Promise.all(
      ["A", "B"].map((name, i) =>
        startServer({
          name,
          port: ports[i],
          env: { ...common, MAILCHIMP_API_URL: `${mailchimp.url}/via-${name.toLowerCase()}` },
        }),
      ),
    )),
  );
  const [A, B] = servers;
  console.log(`  instances A :${A.port} (boot ${secs(A.bootMs)}), B :${B.port} (boot ${secs(B.bootMs)}); proxy ${site}`);
  proxy = await startProxy(proxyPort, servers);

  await step("(a) session created on one instance is valid on the other", async (name) => {
    const email = `rel-cluster-${run}@example.com`;
    const client = new Client({ origin: site, ip: "10.20.0.1" });
    await signUpVerified(client, site, email);
    const pages = [
      "/dashboard",
      "/dashboard/billing",
      "/dashboard/profile",
      "/dashboard/settings",
      "/dashboard/support",
      "/dashboard/analytics",
    ];
    const seen = [];
    for (const page of pages) {
      const res = await client.request(site, page);
      seen.push({ page, status: res.status, upstream: res.headers.get("x-upstream"), signedIn: res.text.includes(email) });
    }
    // And directly on each instance, bypassing the proxy.
    const direct = [];
    for (const s of servers) {
      const res = await client.request(s.url, "/dashboard");
      direct.push({ instance: s.name, status: res.status, signedIn: res.text.includes(email) });
    }
    const upstreams = new Set(seen.map((s) => s.upstream));
    report.check(
      name,
      seen.every((s) => s.status === 200 && s.signedIn) &&
        direct.every((d) => d.status === 200 && d.signedIn) &&
        upstreams.size === 2,
      {
        pages: seen.map((s) => `${s.upstream}:${s.status}`).join(" "),
        direct: direct.map((d) => `${d.instance}:${d.status}`).join(" "),
      },
    );
    return client;
  });

  await step("(b) per-IP sign-in rate limit shared: 11th wrong sign-in is 429", async (name) => {
    const client = new Client({ origin: site, ip: "10.30.0.1" });
    const answers = [];
    for (let i = 0; i < 11; i++) {
      const res = await client.request(site, "/api/auth/sign-in/email", {
        method: "POST",
        json: { email: `nobody-${run}-${i}@example.com`, password: "wrong-password-123" },
      });
      answers.push(`${res.headers.get("x-upstream")}:${res.status}`);
    }
    const statuses = answers.map((a) => Number(a.split(":")[1]));
    const ok =
      statuses.slice(0, 10).every((s) => s !== 429 && s < 500) &&
      statuses[10] === 429 &&
      new Set(answers.map((a) => a.split(":")[0])).size === 2;
    report.check(name, ok, { answers: answers.join(" ") });
  });

  await step(`(c) ${LEADS} leads delivered to Mailchimp exactly once with both workers running`, async (name) => {
    const client = new Client({ origin: site });
    const emails = Array.from({ length: LEADS }, (_, i) => `rel-cluster-lead-${run}-${i}@example.com`);
    const started = now();
    const answers = [];
    // 10 at a time, each from its own client IP (the per-IP lead limit is 5 per 10 minutes).
    for (let i = 0; i < emails.length; i += 10) {
      const batch = emails
        .slice(i, i + 10)
        .map((email, j) =>
          client.request(site, "/api/callback", { method: "POST", json: leadBody(email, i + j), ip: `10.40.${i + j}.1` }),
        );
      for (const res of await Promise.all(batch)) answers.push(`${res.headers.get("x-upstream")}:${res.status}`);
    }
    const accepted = answers.filter((a) => a.endsWith(":200")).length;
    const submitMs = now() - started;
    await waitFor(
      "all leads delivered",
      async () => {
        const [r] = await pgQuery(
          DB,
          "select count(*)::int as n from leads where email = any($1) and delivery_status = 'delivered'",
          [emails],
        );
        return r.n === LEADS;
      },
      { timeoutMs: 90_000, intervalMs: 500 },
    );
    const deliveredMs = now() - started;
    // Let any second (duplicate) run surface: both workers poll every 2 s by default.
    await waitFor(
      "no lead-delivery job left",
      async () => {
        const rows = await pgQuery(
          DB,
          "select count(*)::int as n from pgboss.job where name = 'deliver-lead' and state in ('created','retry','active')",
        );
        return rows[0].n === 0;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    await sleep(6_000);
    // The requests Mailchimp accepted, as its members count them (a refused one added nothing).
    const answeredOk = mailchimp.requests.filter((r) => r.status === 200 || r.status === 204);
    // Each member of these leads, with the PUTs and tag posts that reached it and who sent them.
    const perMember = [...mailchimp.members]
      .filter(([, m]) => emails.includes(m.email_address))
      .map(([hash, m]) => {
        const to = (suffix) => answeredOk.filter((r) => r.path.endsWith(`/members/${hash}${suffix}`));
        return {
          email: m.email_address,
          puts: m.puts,
          tagPosts: to("/tags").filter((r) => r.method === "POST").length,
          via: to("")
            .filter((r) => r.method === "PUT")
            .map((r) => r.via),
        };
      });
    const twice = perMember.filter((m) => m.puts !== 1 || m.tagPosts !== 1);
    // Leads taken by one instance and delivered by the other's worker (both poll one queue).
    const receivedBy = new Map(emails.map((e, i) => [e, answers[i]?.split(":")[0]]));
    const crossInstance = perMember.filter((m) => m.via[0] !== `via-${String(receivedBy.get(m.email)).toLowerCase()}`).length;
    const puts = answeredOk.filter((r) => r.method === "PUT");
    const [attempts] = await pgQuery(
      DB,
      "select coalesce(sum(delivery_attempts),0)::int as n, max(delivery_attempts)::int as max from leads where email = any($1)",
      [emails],
    );
    const figures = {
      accepted,
      upstreams: countBy(answers.map((a) => a.split(":")[0])),
      members: perMember.length,
      puts: puts.length,
      putsByInstance: countBy(puts.map((r) => String(r.via))),
      membersNotExactlyOnce: twice.length,
      deliveredByTheOtherInstance: crossInstance,
      deliveryAttemptsSum: attempts.n,
      submitSeconds: Number((submitMs / 1000).toFixed(2)),
      allDeliveredSeconds: Number((deliveredMs / 1000).toFixed(2)),
    };
    report.check(
      name,
      accepted === LEADS && perMember.length === LEADS && twice.length === 0 && puts.length === LEADS,
      figures,
      twice.length ? `delivered more than once: ${twice.map((m) => `${m.email} x${m.puts}`).join(", ")}` : undefined,
    );
  });

  await step(`(d) webhook to both instances concurrently fulfils each of ${ORDERS} orders once`, async (name) => {
    const client = new Client({ origin: site, ip: "10.50.0.1" });
    await signUpVerified(client, site, `rel-cluster-buyer-${run}@example.com`);
    const sessions = [];
    for (let i = 0; i < ORDERS; i++) {
      const res = await client.request(site, "/api/checkout", {
        method: "POST",
        json: { kind: "app", appId: 7 + i, tab: "base" },
      });
      if (res.status !== 200 || !res.data?.url) throw new Error(`checkout ${res.status}: ${res.text.slice(0, 200)}`);
      sessions.push(new URL(res.data.url).pathname.split("/").pop());
    }
    const deliveries = [];
    const eventIds = [];
    for (const id of sessions) {
      const session = stripeFake.pay(id);
      const completed = signedEvent("checkout.session.completed", session);
      // A second, distinct event for the same payment (Stripe may send async_payment_succeeded too).
      const async = signedEvent("checkout.session.async_payment_succeeded", session);
      eventIds.push(completed.id, async.id);
      for (let r = 0; r < ROUNDS; r++) for (const s of servers) deliveries.push({ s, e: completed });
      for (const s of servers) deliveries.push({ s, e: async });
    }
    const started = now();
    const results = await Promise.all(
      deliveries.map(async ({ s, e }) => {
        const res = await fetch(`${s.url}/api/webhooks/stripe`, {
          method: "POST",
          headers: { "content-type": "application/json", "stripe-signature": e.signature },
          body: e.body,
        });
        await res.text();
        return `${s.name}:${res.status}`;
      }),
    );
    const webhookMs = now() - started;
    const orders = await pgQuery(
      DB,
      `select o.provider_session_id as session, o.status, (select count(*)::int from payment_events p where p.order_id = o.id) as payments
         from orders o where o.provider_session_id = any($1)`,
      [sessions],
    );
    const [ledger] = await pgQuery(DB, "select count(*)::int as n from stripe_events where id = any($1)", [eventIds]);
    const ok =
      orders.length === ORDERS &&
      orders.every((o) => o.status === "paid" && o.payments === 1) &&
      results.every((r) => Number(r.split(":")[1]) < 300) &&
      ledger.n === eventIds.length;
    report.check(name, ok, {
      deliveries: results.length,
      answers: countBy(results),
      orders: orders.map((o) => `${o.status}/${o.payments} payment`).join(", "),
      stripeEventsRows: ledger.n,
      webhookSeconds: Number((webhookMs / 1000).toFixed(2)),
    });
  });

  await step("(e) WEB_CONCURRENCY=2: a killed worker is replaced, SIGTERM stops every worker", async (name) => {
    const port = await freePort();
    const url = `http://localhost:${port}`;
    const C = await startServer({
      name: "C",
      port,
      // Info lines: the primary's "workers started" is one.
      env: {
        ...common,
        PUBLIC_SITE_URL: url,
        WEB_CONCURRENCY: "2",
        MAILCHIMP_API_URL: `${mailchimp.url}/via-c`,
        LOG_LEVEL: "info",
      },
    });
    servers.push(C);
    await waitFor("C: workers started", () => C.output.join("").includes('"workers started"'));
    const first = childPids(C.child.pid);
    const client = new Client({ origin: url, ip: "10.60.0.1" });
    const email = `rel-cluster-workers-${run}@example.com`;
    await signUpVerified(client, url, email);
    const signedIn = async () => {
      const answers = [];
      for (let i = 0; i < 6; i++) {
        const res = await client.request(url, "/dashboard/billing");
        answers.push(res.status === 200 && res.text.includes(email));
      }
      return answers.every(Boolean);
    };
    const before = await signedIn();
    const killed = first[0];
    process.kill(killed, "SIGKILL");
    const replaced = await waitFor("C: the killed worker replaced", () => {
      const live = childPids(C.child.pid);
      return live.length === 2 && !live.includes(killed) ? live : undefined;
    });
    const after = await signedIn();
    const exit = await C.stop();
    const leftAlive = [...first, ...replaced].filter((pid) => existsSync(`/proc/${pid}`));
    report.check(name, first.length === 2 && before && after && exit.code === 0 && leftAlive.length === 0, {
      workersAtStart: first.length,
      killed,
      replacedBy: replaced.filter((p) => !first.includes(p)),
      before,
      after,
      exit,
      leftAlive,
    });
  });

  if (bouncer) {
    await step("(f) the servers' database work went through PgBouncer", async (name) => {
      const pooled = await bouncer.stats();
      report.check(name, pooled.transactions > 100, pooled);
    });
  }

  report.checks.push({
    name: "figures",
    status: "info",
    figures: { via, proxyServed: proxy.served, bootMs: servers.map((s) => Math.round(s.bootMs)) },
  });
  console.log(`  proxy served ${JSON.stringify(proxy.served)}`);
} catch (error) {
  report.fail("cluster: setup", error, { serverLogs: servers.map((s) => `${s.name}: ${s.output.join("").slice(-2000)}`) });
} finally {
  for (const s of servers) await s.stop();
  await proxy?.close();
  await mailchimp.stop();
  await stripeFake.close();
  await bouncer?.close();
}
const summary = report.write();
process.exit(summary.failed > 0 || summary.passed === 0 ? 1 : 0);

/** Runs one proof; an exception fails it (with both servers' last log lines) without stopping the others. */
async function step(name, fn) {
  console.log(`\n-- ${name}`);
  try {
    return await fn(name);
  } catch (error) {
    report.fail(name, error, { serverLogs: servers.map((s) => `${s.name}: ${s.output.join("").slice(-1500)}`) });
  }
}

/** Live child processes of `pid` (the primary's workers), from /proc. */
function childPids(pid) {
  const out = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the command name: state, ppid, ...; a zombie (Z) is already gone.
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(ppid) === pid && state !== "Z") out.push(Number(entry));
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}

function countBy(list) {
  const out = {};
  for (const x of list) out[x] = (out[x] ?? 0) + 1;
  return out;
}

/** A webhook delivery as Stripe sends it, signed with the `stripe` package's test header helper. */
function signedEvent(type, object) {
  const id = `evt_rel${run}${(++eventCounter).toString(36)}`;
  const body = JSON.stringify({
    id,
    object: "event",
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  });
  return { id, body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET }) };
}
