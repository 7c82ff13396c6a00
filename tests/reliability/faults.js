// Faults of the production server (`node server.js` on the build), driven over raw HTTP:
//   1. methods and requests it does not serve: TRACE, CONNECT, PROPFIND, TRACK, a made-up method,
//      methods with a body, PUT/DELETE/OPTIONS and a bad Host get 501, 405 (with Allow) or 400;
//   2. a full disk under DATA_DIR, on a tmpfs of its own (needs root; skipped with the reason where
//      `mount` is refused): /healthz answers 503 "degraded"/"read-only" while a lead answers 503,
//      the lead's log line names the cause (No space left on device, SQLSTATE 53100) and no line
//      holds the lead's data; once space is freed, /healthz is 200 again and leads are stored;
//   3. every line the server printed on stdout and stderr meanwhile is one JSON object.
// Writes test-reports/faults.json (see lib.js). No wall-clock assertions: every wait is a poll.
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, fromTemplate, leadBody, Report, startServer, waitFor } from "./lib.js";

const report = new Report("faults");
const LEAD = { email: "disk-full-lead@example.com", phone: "+15550009876" };

/** One request written as text on a new connection; the status line and headers of the answer. */
function rawRequest(port, text) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(text));
    let received = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within 30 s to ${JSON.stringify(text.split("\r\n")[0])}`));
    }, 30_000);
    socket.on("data", (chunk) => {
      received += chunk;
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      const [head = ""] = received.split("\r\n\r\n");
      const [statusLine = "", ...headerLines] = head.split("\r\n");
      const headers = Object.fromEntries(
        headerLines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(" ")[1]) || null, headers });
    });
  });
}

/** Sends each request the server does not serve and checks its answer. */
async function unsupportedRequests(server) {
  const host = `localhost:${server.port}`;
  const origin = `http://${host}`;
  const request = (line, headers = {}, body = "") =>
    [line, `Host: ${host}`, "Connection: close", ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)]
      .concat(body ? [`Content-Length: ${Buffer.byteLength(body)}`] : [])
      .join("\r\n") + `\r\n\r\n${body}`;
  const cases = [
    ["TRACE / with the site's Origin", request("TRACE / HTTP/1.1", { Origin: origin }), 501],
    ["TRACE with a body", request("TRACE /apps HTTP/1.1", { Origin: origin, "Content-Type": "text/plain" }, "echo me"), 501],
    ["TRACK", request("TRACK / HTTP/1.1", { Origin: origin }), 501],
    ["CONNECT", `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`, 501],
    [
      "PROPFIND with an XML body",
      request("PROPFIND /dashboard HTTP/1.1", { Origin: origin, Depth: "1", "Content-Type": "application/xml" }, "<propfind/>"),
      501,
    ],
    ["a made-up method", request("FROBNICATE / HTTP/1.1", { Origin: origin }), 501],
    [
      "PUT with a JSON body to a POST-only API",
      request("PUT /api/callback HTTP/1.1", { Origin: origin, "Content-Type": "application/json" }, "{}"),
      405,
      "GET, HEAD, POST",
    ],
    ["DELETE of a page", request("DELETE /industries HTTP/1.1", { Origin: origin }), 405, "GET, HEAD"],
    ["OPTIONS of a page with a form", request("OPTIONS /live-training HTTP/1.1"), 405, "GET, HEAD, POST"],
    ["a Host with a space", `GET /apps?q=x HTTP/1.1\r\nHost: exa mple.com\r\nConnection: close\r\n\r\n`, 400],
    ["a Host with a port past 65535", `GET /apps HTTP/1.1\r\nHost: localhost:99999\r\nConnection: close\r\n\r\n`, 400],
    ["no Host (HTTP/1.0)", `GET /apps HTTP/1.0\r\n\r\n`, 400],
  ];
  for (const [name, text, status, allow] of cases) {
    const answer = await rawRequest(server.port, text);
    report.check(
      `${name}: ${status}${allow ? ` with Allow: ${allow}` : ""}`,
      answer.status === status && (allow === undefined || answer.headers.allow === allow),
      { status: answer.status, allow: answer.headers.allow },
    );
  }
  const health = await fetch(`${server.url}/healthz`);
  report.check("the server still serves afterwards", health.status === 200, { healthz: health.status });
}

/** Fills the file system of `dir` to the last byte. */
function fill(dir) {
  const fd = openSync(path.join(dir, "filler"), "w");
  try {
    for (const size of [1 << 20, 1 << 12]) {
      const chunk = Buffer.alloc(size);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (error) {
        if (error.code !== "ENOSPC") throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
}

async function postLead(server, lead) {
  const res = await fetch(`${server.url}/api/callback`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, "x-forwarded-for": "203.0.113.9" },
    body: JSON.stringify({ ...leadBody(lead.email), phone: lead.phone }),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

async function diskFull(server, dataFolder) {
  fill(dataFolder);
  const degraded = await waitFor("/healthz to report the full disk", async () => {
    const res = await fetch(`${server.url}/healthz`);
    return res.status === 503 ? { status: res.status, body: await res.json() } : null;
  });
  report.check(
    "disk full: /healthz answers 503 degraded, read-only",
    degraded.body.status === "degraded" && degraded.body.database === "read-only",
    degraded,
  );
  const refused = await postLead(server, LEAD);
  report.check("disk full: a lead answers 503", refused.status === 503, refused);
  const line = await waitFor("the lead's error line", () =>
    lines(server.printed().stderr).find((l) => l.includes('"msg":"callback request failed"')),
  );
  const named = /No space left on device|ENOSPC|SQLSTATE 53100/.test(line);
  const everything = Object.values(server.printed()).join("");
  report.check(
    "disk full: the lead's log line names the cause, and no line holds the lead's data",
    named && !everything.includes(LEAD.email) && !everything.includes(LEAD.phone),
    { line: line.slice(0, 400) },
  );
  unlinkSync(path.join(dataFolder, "filler"));
  await waitFor("/healthz to be ok again", async () => (await fetch(`${server.url}/healthz`)).status === 200);
  const stored = await postLead(server, { email: "after-disk-full@example.com", phone: "+15550009877" });
  report.check("space freed: /healthz is 200 again and a lead is stored", stored.status === 200, stored);
}

const lines = (text) => text.split("\n").filter((line) => line.trim() !== "");

function everyLineJson(server) {
  for (const [stream, text] of Object.entries(server.printed())) {
    const bad = lines(text).filter((line) => {
      try {
        const value = JSON.parse(line);
        return typeof value !== "object" || value === null || Array.isArray(value);
      } catch {
        return true;
      }
    });
    report.check(`every line on ${stream} is one JSON object`, bad.length === 0, {
      lines: lines(text).length,
      notJson: bad.slice(0, 5).map((line) => line.slice(0, 300)),
    });
  }
}

/** A tmpfs of `size` on a new folder; the reason as text where it cannot be had. */
function mountTmpfs(size) {
  if (process.platform !== "linux") return { reason: "tmpfs needs Linux" };
  const dir = mkdtempSync(path.join(tmpdir(), "rel-diskfull-"));
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { encoding: "utf8" });
  if (mounted.status === 0) return { dir };
  rmSync(dir, { recursive: true, force: true });
  return { reason: `mount -t tmpfs refused (${(mounted.stderr || mounted.error?.message || `exit ${mounted.status}`).trim()})` };
}

const tmpfs = mountTmpfs("128m");
const dataParent = tmpfs.dir ?? mkdtempSync(path.join(tmpdir(), "rel-faults-"));
let server;
try {
  const port = await freePort();
  server = await startServer({
    name: "faults",
    port,
    env: {
      DATA_DIR: fromTemplate(path.join(dataParent, "data")),
      PUBLIC_SITE_URL: `http://localhost:${port}`,
      LOG_LEVEL: "info",
      TRUSTED_PROXIES: "127.0.0.1",
    },
  });
  await unsupportedRequests(server);
  if (tmpfs.dir) await diskFull(server, dataParent);
  else report.skip("disk full under DATA_DIR", `${tmpfs.reason}: needs root and a tmpfs mount`);
  await server.stop();
  everyLineJson(server);
} catch (error) {
  report.fail("faults: scenario", error, { serverLog: server?.output.join("").slice(-3000) });
} finally {
  if (server) {
    server.child.kill("SIGKILL");
    await server.exited;
  }
  if (tmpfs.dir) spawnSync("umount", [dataParent]);
  rmSync(dataParent, { recursive: true, force: true });
}
const summary = report.write();
process.exit(summary.failed === 0 ? 0 : 1);
