// The customer journey of the container smoke test (run by scripts/container-smoke.sh once the
// compose stack is up), entirely through the TLS proxy: sign up, verify by the link the SMTP sink
// received, start a trial, pay for a plan with the local provider, send a lead; then restart one app
// instance while signed-in pages and more leads keep coming, and check that every request was
// answered and the database holds every write exactly once.
//
// Env: SMOKE_SITE (PUBLIC_SITE_URL), SMOKE_CONNECT (host:port the proxy listens on here),
// SMOKE_CA (the proxy's certificate, verified, not ignored), COMPOSE_PROJECT_NAME.
// Exits 1 on the first failed check.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { waitFor } from "../tests/reliability/lib.js";

const site = new URL(process.env.SMOKE_SITE ?? "https://marketplace.test:8443");
const [connectHost, connectPort] = (process.env.SMOKE_CONNECT ?? "127.0.0.1:8443").split(":");
const ca = readFileSync(process.env.SMOKE_CA ?? "docker/tls/cert.pem");
const project = process.env.COMPOSE_PROJECT_NAME ?? "aiapps-smoke";
const run = Date.now().toString(36);
const email = `smoke-${run}@example.com`;
const password = "correct-horse-battery";

/** Containers start and restart slowly on two cores: up to two minutes, polled every 250 ms. */
const WAIT = { timeoutMs: 120_000, intervalMs: 250 };
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

function check(name, ok, detail) {
  if (!ok) {
    console.error(
      `  FAIL ${name}${detail === undefined ? "" : `: ${typeof detail === "string" ? detail : JSON.stringify(detail)}`}`,
    );
    process.exit(1);
  }
  console.log(`  PASS ${name}${detail === undefined ? "" : `  ${typeof detail === "string" ? detail : JSON.stringify(detail)}`}`);
}

// ---- docker ------------------------------------------------------------------------------------
/** The container of a compose service of this project (works with Compose v1 and v2). */
function container(service) {
  const id = execFileSync(
    "docker",
    [
      "ps",
      "-q",
      "--filter",
      `label=com.docker.compose.project=${project}`,
      "--filter",
      `label=com.docker.compose.service=${service}`,
    ],
    { encoding: "utf8" },
  ).trim();
  if (!id) throw new Error(`no running container for ${service}`);
  return id.split("\n")[0];
}

function sql(text) {
  return execFileSync(
    "docker",
    [
      "exec",
      "-e",
      `PGPASSWORD=${process.env.POSTGRES_PASSWORD ?? ""}`,
      container("db"),
      "psql",
      "-h",
      "127.0.0.1",
      "-U",
      "postgres",
      "-d",
      "marketplace",
      "-At",
      "-c",
      text,
    ],
    {
      encoding: "utf8",
      env: { ...process.env },
    },
  ).trim();
}

/** Mails the sink printed, one JSON object a line. */
function mails() {
  const out = execFileSync("docker", ["logs", container("mail")], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  return out
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
}

// ---- HTTPS client with a cookie jar --------------------------------------------------------------
const jar = new Map();
function request(pathname, { method = "GET", json, form } = {}) {
  const headers = { host: site.host };
  if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  if (method !== "GET") headers.origin = site.origin;
  let body;
  if (json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(json);
  } else if (form !== undefined) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(form).toString();
  }
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: connectHost,
        port: Number(connectPort),
        servername: site.hostname,
        ca,
        method,
        path: pathname,
        headers,
        agent: false,
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          for (const line of res.headers["set-cookie"] ?? []) {
            const [pair] = line.split(";");
            const eq = pair.indexOf("=");
            const key = pair.slice(0, eq).trim();
            const value = pair.slice(eq + 1).trim();
            if (/max-age=0/i.test(line) || value === "") jar.delete(key);
            else jar.set(key, value);
          }
          const text = Buffer.concat(chunks).toString();
          let data;
          try {
            data = JSON.parse(text);
          } catch {
            data = undefined;
          }
          resolve({ status: res.statusCode, headers: res.headers, text, data });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const leadBody = (i) => ({
  firstName: `Smoke${i}`,
  email: `smoke-lead-${run}-${i}@example.com`,
  phone: `+1555010${String(i).padStart(4, "0")}`,
});

// ---- the journey -------------------------------------------------------------------------------
console.log(`container smoke journey: ${site.origin} via ${connectHost}:${connectPort}, project ${project}`);

const health = await waitFor("/healthz through the proxy", async () => (await request("/healthz")).status === 200 && true, WAIT);
check("/healthz answers 200 through the proxy", health);
const home = await request("/");
check(
  "the home page answers 200 over HTTPS with HSTS",
  home.status === 200 && /max-age=\d+/.test(home.headers["strict-transport-security"] ?? ""),
  {
    status: home.status,
  },
);

const signUp = await request("/api/auth/sign-up/email", { method: "POST", json: { email, password, name: "Smoke Test" } });
check(
  "sign-up is accepted",
  signUp.status === 200,
  `${signUp.status}${signUp.status === 200 ? "" : ` ${signUp.text.slice(0, 200)}`}`,
);
const link = await waitFor(
  `the verification mail to ${email} in the SMTP sink`,
  () => {
    const mail = mails().find((m) => m.to.includes(email) && /verify/i.test(m.text));
    return mail?.text.match(/https:\/\/[^\s"<>]+verify[^\s"<>]*/)?.[0];
  },
  WAIT,
);
check(
  "the verification mail left the server through SMTP, with a link to the public site",
  link.startsWith(site.origin),
  link.replace(/token=[^&]+/, "token=…"),
);
const verifyUrl = new URL(link);
const verify = await request(verifyUrl.pathname + verifyUrl.search);
const sessionCookie = [...jar.keys()].find((k) => k.includes("session_token"));
check(
  "the verification link signs in with a __Secure- session cookie",
  [200, 302].includes(verify.status) && sessionCookie?.startsWith("__Secure-"),
  {
    status: verify.status,
    cookie: sessionCookie,
  },
);

const trial = await request("/dashboard", { method: "POST", form: { intent: "start-trial", plan: "starter" } });
check(
  "the free trial starts",
  trial.status === 302 && /trial-started/.test(trial.headers.location ?? ""),
  `${trial.status} ${trial.headers.location ?? ""}`,
);

const checkout = await request("/api/checkout", { method: "POST", json: { kind: "plan", planType: "basic" } });
check(
  "a plan checkout opens with the local provider",
  checkout.status === 200 && Boolean(checkout.data?.url),
  `${checkout.status} ${checkout.text.slice(0, 200)}`,
);
const checkoutPath = new URL(checkout.data.url, site.origin).pathname;
const sessionId = decodeURIComponent(checkoutPath.split("/").pop());
const pay = await request(checkoutPath, { method: "POST", form: { card: "4242424242424242", expiry: "12/40", cvc: "123" } });
check(
  "the payment goes through",
  pay.status === 302 && /\/dashboard\/billing\?success=true/.test(pay.headers.location ?? ""),
  `${pay.status} ${pay.headers.location ?? ""}`,
);

const firstLead = await request("/api/callback", { method: "POST", json: leadBody(0) });
check(
  "a lead is accepted",
  firstLead.status === 200 && firstLead.data?.ok === true,
  `${firstLead.status} ${firstLead.text.slice(0, 200)}`,
);

// ---- one instance restarts while traffic flows ---------------------------------------------------
const app1 = container("app1");
const restartStarted = performance.now();
const restart = new Promise((resolve, reject) => {
  const child = spawn("docker", ["restart", "-t", "20", app1], { stdio: "ignore" });
  child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`docker restart exited ${code}`))));
});
// Set by the restart promise; read by the loop below.
const restartState = { done: false };
void restart.then(() => (restartState.done = true));
const answers = new Map();
const count = (status) => answers.set(status, (answers.get(status) ?? 0) + 1);
// Up to the callback form's limit per address (five in ten minutes): the first lead above and four here.
const leadsDuring = [1, 2, 3, 4];
const acceptedLeads = [0];
let requests = 0;
let batches = 0;
let leadsWhileRestarting = 0;
let dashboards = 0;
let dashboardsSignedIn = 0;
while (!restartState.done || leadsDuring.length) {
  const batch = [request("/dashboard"), request("/"), request("/apps")];
  if (leadsDuring.length && (batches % 2 === 1 || restartState.done)) {
    const i = leadsDuring.shift();
    batch.push(
      request("/api/callback", { method: "POST", json: leadBody(i) }).then((r) => (r.status === 200 && acceptedLeads.push(i), r)),
    );
  }
  if (batch.length === 4 && !restartState.done) leadsWhileRestarting++;
  const results = await Promise.allSettled(batch);
  batches++;
  for (const [n, result] of results.entries()) {
    requests++;
    if (result.status === "rejected") count(`error: ${result.reason?.code ?? result.reason?.message}`);
    else {
      count(result.value.status);
      if (n === 0) dashboards++;
      if (n === 0 && result.value.status === 200 && result.value.text.includes(email)) dashboardsSignedIn++;
    }
  }
}
await restart;
const restartSeconds = ((performance.now() - restartStarted) / 1000).toFixed(1);
const appHealthy = await waitFor(
  "app1 healthy again",
  () => {
    const state = execFileSync("docker", ["inspect", "-f", "{{.State.Health.Status}}", app1], { encoding: "utf8" }).trim();
    return state === "healthy";
  },
  WAIT,
);
const statuses = Object.fromEntries(answers);
check(
  "while app1 restarted, every request through the proxy was answered 200",
  answers.size === 1 && answers.get(200) === requests,
  { requests, statuses, leadsWhileRestarting, restartSeconds: Number(restartSeconds) },
);
check("the session held on both instances during the restart", dashboardsSignedIn === dashboards, {
  dashboards,
  dashboardsSignedIn,
});
check("app1 is healthy again after its restart", appHealthy);

// ---- the database holds every write, once ------------------------------------------------------
const trialRow = sql(
  `select t.trial_started || ',' || t.selected_plan from trial_access t join "user" u on u.id = t.user_id where u.email = '${email}'`,
);
check("the trial is stored", trialRow === "true,starter", trialRow);
const order = sql(
  `select o.status || ',' || (select count(*) from payment_events p where p.order_id = o.id) from orders o where o.provider_session_id = '${sessionId.replace(/'/g, "''")}'`,
);
check("the order is paid, with one payment event", order === "paid,1", order);
const emails = acceptedLeads.map((i) => `'${leadBody(i).email}'`).join(",");
const leadCounts = sql(`select email || '=' || count(*) from leads where email in (${emails}) group by email order by email`)
  .split("\n")
  .filter(Boolean);
check(
  "every accepted lead is stored exactly once",
  acceptedLeads.length === 5 && leadCounts.length === acceptedLeads.length && leadCounts.every((l) => l.endsWith("=1")),
  { accepted: acceptedLeads.length, stored: leadCounts.length },
);
const after = await request("/dashboard");
check("the customer is still signed in after the restart", after.status === 200 && after.text.includes(email));
console.log(`container smoke journey passed in ${elapsed()}`);
