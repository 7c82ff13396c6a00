// HTTPS proof: behind a TLS-terminating proxy the site sends HSTS
// and Secure cookies; without TLS, or with a forwarded "https" from a client that is not a trusted
// proxy, it sends no HSTS.
//
// The real production server (`node server.js`) runs with PUBLIC_SITE_URL=https://localhost:<proxy
// port> and TRUSTED_PROXIES=127.0.0.1 on a throw-away PGlite folder. In front of it, a node:https
// proxy written here terminates TLS with a self-signed certificate made at run time by `openssl`
// (key and certificate live in a temporary folder, removed at the end; nothing is committed) and
// forwards to 127.0.0.1 with X-Forwarded-Proto: https and X-Forwarded-For. The client verifies the
// proxy's certificate against that same certificate (no verification is switched off). Proves:
//   (a) over https: Strict-Transport-Security (max-age >= 1 year) on pages (a fresh render and the
//       page cache's stored copy), .data requests, redirects, assets, API answers and errors;
//   (b) over plain http, straight to the server: no HSTS on the same URLs;
//   (c) a client that is not a trusted proxy (another loopback address) sending X-Forwarded-Proto:
//       https straight to the server gets no HSTS, on fresh renders and cached pages alike;
//   (d) the cookies of sign-up verification and sign-in over https are Secure, HttpOnly and
//       SameSite=Lax (and __Secure- prefixed), and the session works over https.
//
// Usage: BUILD_DIR=/tmp/build node tests/reliability/https.js   (after the build; needs openssl)
// Env: REL_VERBOSE=1 (server logs). Writes test-reports/https.json ({ passed, failed, skipped, checks }).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer as createHttpsServer, request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import { BUILD_DIR, freePort, fromTemplate, Report, startServer, waitFor } from "./lib.js";

const report = new Report("https");
const PASSWORD = "correct-horse-battery";
/** The trusted proxy's address, and a loopback address that is nobody's proxy. */
const PROXY_ADDRESS = "127.0.0.1";
const UNTRUSTED_ADDRESS = "127.0.0.2";
const ONE_YEAR = 365 * 24 * 60 * 60;

if (!existsSync(path.join(BUILD_DIR, "server/index.js"))) {
  console.error(`No build in ${BUILD_DIR}: run \`BUILD_DIR=${BUILD_DIR} npx react-router build\` first.`);
  process.exit(1);
}

/** A self-signed certificate for localhost, valid for a day, made now in a temporary folder. */
function makeCertificate(dir) {
  const key = path.join(dir, "key.pem");
  const cert = path.join(dir, "cert.pem");
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        key,
        "-out",
        cert,
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost,IP:127.0.0.1",
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
  } catch (error) {
    throw new Error(`openssl could not make a test certificate (is openssl installed?): ${error.message}`, { cause: error });
  }
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

/** TLS-terminating reverse proxy: forwards to the app with X-Forwarded-Proto: https and X-Forwarded-For. */
async function startTlsProxy(port, upstreamPort, tls) {
  const server = createHttpsServer(tls, (req, res) => {
    const prior = req.headers["x-forwarded-for"];
    const peer = req.socket.remoteAddress?.replace(/^::ffff:/, "") ?? "";
    const headers = {
      ...req.headers,
      // A proxy states the scheme itself; whatever the client claimed is replaced.
      "x-forwarded-proto": "https",
      "x-forwarded-for": prior ? `${prior}, ${peer}` : peer,
    };
    const up = httpRequest(
      { host: "127.0.0.1", port: upstreamPort, localAddress: PROXY_ADDRESS, method: req.method, path: req.url, headers },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      },
    );
    up.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`proxy: ${error.message}`);
    });
    req.pipe(up);
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

/**
 * One request; `via` is "https" (through the proxy, certificate verified), "http" (straight to the
 * server from the trusted address) or "untrusted" (straight to the server from another address).
 */
function send(ctx, via, pathname, { method = "GET", headers = {}, body } = {}) {
  const https = via === "https";
  const h = { host: `localhost:${https ? ctx.proxyPort : ctx.appPort}`, "accept-encoding": "identity", ...headers };
  if (body !== undefined) h["content-length"] = String(Buffer.byteLength(body));
  const options = {
    host: "127.0.0.1",
    port: https ? ctx.proxyPort : ctx.appPort,
    method,
    path: pathname,
    headers: h,
    ...(https
      ? { ca: ctx.cert, servername: "localhost" }
      : { localAddress: via === "untrusted" ? UNTRUSTED_ADDRESS : PROXY_ADDRESS }),
  };
  return new Promise((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(options, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** max-age of an HSTS header value, or null. */
function hstsMaxAge(value) {
  const m = /(?:^|;)\s*max-age=(\d+)/i.exec(value ?? "");
  return m ? Number(m[1]) : null;
}

const asset = readdirSync(path.join(BUILD_DIR, "client/assets")).find((f) => f.startsWith("entry.client") && f.endsWith(".js"));
const rootFile = readdirSync(path.join(BUILD_DIR, "client")).find((f) => /\.(svg|ico|png|txt)$/.test(f));

/** [label, method, path, body?, content-type?, origin?]: pages, data, redirects, files, API and errors. */
const TARGETS = [
  ["page /", "GET", "/"],
  ["page /apps", "GET", "/apps"],
  ["page /auth", "GET", "/auth"],
  ["redirect /dashboard -> /auth", "GET", "/dashboard"],
  ["data /_.data", "GET", "/_.data"],
  ["data /dashboard.data (redirect)", "GET", "/dashboard.data"],
  ["asset /assets/entry.client", "GET", `/assets/${asset}`],
  ...(rootFile ? [[`static /${rootFile}`, "GET", `/${rootFile}`]] : []),
  ["text /robots.txt", "GET", "/robots.txt"],
  ["api /healthz", "GET", "/healthz"],
  ["api /api/auth/get-session", "GET", "/api/auth/get-session"],
  ["api 405 /api/checkout", "GET", "/api/checkout"],
  ["api 400 POST /api/callback", "POST", "/api/callback", "{}", "application/json"],
  ["api 401 POST /api/checkout", "POST", "/api/checkout", "{}", "application/json"],
  ["error 404 page", "GET", "/no-such-page"],
  ["error 404 asset", "GET", "/assets/no-such-file.js"],
  ["error 403 cross-site POST", "POST", "/auth", "intent=signin", "application/x-www-form-urlencoded", "https://evil.example"],
];

async function requestTarget(ctx, via, [, method, pathname, body, type, origin]) {
  const headers = {};
  if (type) headers["content-type"] = type;
  if (method !== "GET") headers.origin = origin ?? ctx.site;
  // The untrusted client claims https, and a client address of its choosing.
  if (via === "untrusted") Object.assign(headers, { "x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.9" });
  return send(ctx, via, pathname, { method, headers, body });
}

/** Requests every target `via` and records which answered with (or without) HSTS. */
async function sweep(ctx, via) {
  const rows = [];
  for (const target of TARGETS) {
    const res = await requestTarget(ctx, via, target);
    rows.push({ target: target[0], status: res.status, hsts: res.headers["strict-transport-security"] ?? null });
  }
  return rows;
}

/** Files the server sends from the build folder (hashed assets, favicon), not rendered or answered by the app. */
const isStaticFile = (row) => /^(asset|static) /.test(row.target);

function checkHsts(name, rows, wanted, expectedCount = TARGETS.length) {
  const wrong = rows.filter((r) => (wanted ? !(hstsMaxAge(r.hsts) >= ONE_YEAR) : r.hsts !== null));
  const serverErrors = rows.filter((r) => r.status >= 500);
  report.check(
    name,
    rows.length === expectedCount && rows.length > 0 && wrong.length === 0 && serverErrors.length === 0,
    { requests: rows.length, statuses: Object.fromEntries(rows.map((r) => [r.target, r.status])) },
    [
      ...wrong.map((r) => `${r.target} (${r.status}): HSTS ${r.hsts === null ? "missing" : `"${r.hsts}"`}`),
      ...serverErrors.map((r) => `${r.target}: ${r.status}`),
    ].join("; "),
  );
}

/** `name=value` of a Set-Cookie line, and its attributes (lower-cased names). */
function parseSetCookie(line) {
  const [pair, ...attrs] = line.split(";").map((s) => s.trim());
  const name = pair.slice(0, pair.indexOf("="));
  const flags = new Map(
    attrs.map((a) => {
      const i = a.indexOf("=");
      return i < 0 ? [a.toLowerCase(), true] : [a.slice(0, i).toLowerCase(), a.slice(i + 1)];
    }),
  );
  return { name, value: pair.slice(name.length + 1), flags };
}

function checkCookies(name, setCookies) {
  const cookies = setCookies.map(parseSetCookie);
  const session = cookies.find((c) => c.name.endsWith("session_token") && c.value);
  const bad = cookies.filter(
    (c) =>
      c.flags.get("secure") !== true ||
      c.flags.get("httponly") !== true ||
      String(c.flags.get("samesite")).toLowerCase() !== "lax",
  );
  report.check(
    name,
    Boolean(session) && session.name.startsWith("__Secure-") && bad.length === 0,
    { cookies: cookies.map((c) => `${c.name}; ${[...c.flags.keys()].join("; ")}`) },
    !session
      ? "no session cookie"
      : bad.length
        ? `not Secure+HttpOnly+SameSite=Lax: ${bad.map((c) => c.name).join(", ")}`
        : `name ${session.name}`,
  );
  return session;
}

async function cookieProof(ctx) {
  const email = `rel-https-${Date.now().toString(36)}@example.com`;
  const json = (value) => ({ headers: { "content-type": "application/json", origin: ctx.site }, body: JSON.stringify(value) });
  const up = await send(ctx, "https", "/api/auth/sign-up/email", {
    method: "POST",
    ...json({ email, password: PASSWORD, name: email }),
  });
  if (up.status !== 200) throw new Error(`sign-up over https: ${up.status} ${up.text.slice(0, 200)}`);
  const link = await waitFor(`verification mail for ${email}`, async () => {
    const box = await send(ctx, "https", `/dev/mailbox.json?to=${encodeURIComponent(email)}`);
    return JSON.parse(box.text)
      .find((m) => /verify/i.test(m.subject))
      ?.text.match(/https?:\/\/\S+/)?.[0];
  });
  const verifyUrl = new URL(link);
  report.check("the verification link is an https link to the site", verifyUrl.origin === ctx.site, { origin: verifyUrl.origin });
  const verify = await send(ctx, "https", verifyUrl.pathname + verifyUrl.search);
  checkCookies(
    "https: verification (auto sign-in) sets Secure; HttpOnly; SameSite=Lax cookies",
    verify.headers["set-cookie"] ?? [],
  );

  const signIn = await send(ctx, "https", "/api/auth/sign-in/email", { method: "POST", ...json({ email, password: PASSWORD }) });
  const session = checkCookies(
    "https: sign-in sets Secure; HttpOnly; SameSite=Lax cookies (__Secure- prefixed)",
    signIn.status === 200 ? (signIn.headers["set-cookie"] ?? []) : [],
  );
  const cookie = session ? `${session.name}=${session.value}` : "";
  const me = await send(ctx, "https", "/api/auth/get-session", { headers: { cookie } });
  const user = me.status === 200 ? JSON.parse(me.text)?.user : null;
  report.check("https: the Secure session cookie signs the user in", user?.email === email, { status: me.status });
  const page = await send(ctx, "https", "/dashboard", { headers: { cookie } });
  report.check(
    "https: a signed-in page carries HSTS",
    page.status === 200 && hstsMaxAge(page.headers["strict-transport-security"]) >= ONE_YEAR,
    { status: page.status, hsts: page.headers["strict-transport-security"] ?? null },
  );
}

const dir = mkdtempSync(path.join(tmpdir(), "rel-https-"));
let server;
let proxy;
try {
  const tls = makeCertificate(path.join(dir));
  const appPort = await freePort();
  const proxyPort = await freePort();
  const site = `https://localhost:${proxyPort}`;
  console.log(`https proof: build ${BUILD_DIR}, server :${appPort} behind a TLS proxy at ${site}`);
  server = await startServer({
    name: "https",
    port: appPort,
    env: { PUBLIC_SITE_URL: site, TRUSTED_PROXIES: PROXY_ADDRESS, DATA_DIR: fromTemplate(path.join(dir, "data")) },
  });
  proxy = await startTlsProxy(proxyPort, appPort, tls);
  const ctx = { appPort, proxyPort, site, cert: tls.cert };

  // Each sweep twice and interleaved, so every page is seen both freshly rendered and from the page
  // cache, whichever kind of request stored it.
  const https1 = await sweep(ctx, "https");
  const http1 = await sweep(ctx, "http");
  const untrusted1 = await sweep(ctx, "untrusted");
  const https2 = await sweep(ctx, "https");
  const untrusted2 = await sweep(ctx, "untrusted");
  const http2 = await sweep(ctx, "http");
  const files = (rows) => rows.filter(isStaticFile);
  const answers = (rows) => rows.filter((r) => !isStaticFile(r));
  const fileCount = files(https1).length;
  checkHsts(
    "https via the proxy: HSTS on pages, data, redirects, API and errors",
    answers(https1),
    true,
    TARGETS.length - fileCount,
  );
  checkHsts(
    "https via the proxy, again (pages from the page cache): HSTS on every answer",
    answers(https2),
    true,
    TARGETS.length - fileCount,
  );
  checkHsts(
    "https via the proxy: HSTS on static files (hashed assets, favicon)",
    [...files(https1), ...files(https2)],
    true,
    2 * fileCount,
  );
  checkHsts("plain http straight to the server: no HSTS", http1, false);
  checkHsts("plain http straight to the server, again (page cache): no HSTS", http2, false);
  checkHsts("X-Forwarded-Proto: https from a client that is not a trusted proxy: no HSTS", untrusted1, false);
  checkHsts("the same, again (page cache): no HSTS", untrusted2, false);
  await cookieProof(ctx);
} catch (error) {
  report.fail("https: scenario", error, { serverLog: server?.output.join("").slice(-3000) });
} finally {
  await proxy?.close();
  if (server) await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
const summary = report.write();
process.exit(summary.failed > 0 || summary.passed === 0 ? 1 : 0);
