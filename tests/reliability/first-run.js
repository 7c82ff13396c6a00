// A first run as an operator does it: the production server (`node server.js` on the build) started
// on a port of its own, from a folder holding a `.env`, without PUBLIC_SITE_URL, and its forms
// posted the way a browser posts them:
//   1. the `.env` of the folder it starts from is read, and the environment wins over it;
//   2. a form posted from http://localhost:PORT, http://127.0.0.1:PORT or http://[::1]:PORT is taken,
//      and the lead is stored;
//   3. the links it sends (sign-up's verification mail) are built on the port it listens on, and the
//      operator who follows one (and turns on two-factor sign-in) sees the leads at /admin/leads;
//   4. a form from another origin (the old default http://localhost:3000) gets a 403 page that says
//      why, and the log names the expected and the received origin.
// Writes test-reports/first-run.json (see lib.js). No wall-clock assertions: every wait is a poll.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, enrolTwoFactor, freePort, Report, ROOT, signUpVerified, startServer, waitFor } from "./lib.js";

const report = new Report("first-run");
const BOOK_DEMO_FROM_FILE = "https://book.example.com/from-env-file";
const OPERATOR = "first-run-operator@example.com";

const folder = mkdtempSync(path.join(tmpdir(), "first-run-"));
// The migrations are read from the folder the server starts in.
symlinkSync(path.join(ROOT, "drizzle"), path.join(folder, "drizzle"));
writeFileSync(
  path.join(folder, ".env"),
  [
    "# What an operator copies from .env.example and edits",
    `BOOK_DEMO_URL=${BOOK_DEMO_FROM_FILE}`,
    // The environment's PORT must win over this one (nothing can listen on port 1 here).
    "PORT=1",
    "LOG_LEVEL=info",
    "",
  ].join("\n"),
);

/** A browser's form post: form-encoded, its page's Origin, asking for HTML. */
async function postForm(base, pathname, origin, fields) {
  const res = await fetch(new URL(pathname, base), {
    method: "POST",
    redirect: "manual",
    headers: { origin, accept: "text/html,application/xhtml+xml", "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, type: res.headers.get("content-type") ?? "", text: await res.text() };
}

const lead = (email) => ({ firstName: "Ada", email, phone: "+1 555 010 0199" });

let server;
try {
  const port = await freePort();
  server = await startServer({
    name: "first-run",
    port,
    cwd: folder,
    // Empty is unset: the environment says "no PUBLIC_SITE_URL", whatever the runner's has.
    env: { PUBLIC_SITE_URL: "", DATA_DIR: path.join(folder, "data"), LOG_LEVEL: "", OPERATOR_EMAILS: OPERATOR },
  });
  const site = `http://localhost:${port}`;

  // 1. The .env file.
  const home = await (await fetch(`${site}/`)).text();
  const readLine = server.output
    .join("")
    .split("\n")
    .find((line) => line.includes("settings read from .env"));
  const names = readLine ? JSON.parse(readLine).names : [];
  report.check(
    "the .env of the folder it starts from is read at boot, and the environment wins over it",
    home.includes(BOOK_DEMO_FROM_FILE) && names.includes("BOOK_DEMO_URL") && !names.includes("PORT"),
    { listeningOn: port, namesFromFile: names },
    `home links the file's BOOK_DEMO_URL: ${home.includes(BOOK_DEMO_FROM_FILE)}; log line: ${readLine}`,
  );

  // 2. Forms from its own loopback origins.
  const page = await postForm(site, "/live-training", site, lead("first-run-localhost@example.com"));
  const fromLoopback = [];
  for (const [host, name] of [
    ["127.0.0.1", "ipv4"],
    ["[::1]", "ipv6"],
  ]) {
    const res = await fetch(`http://127.0.0.1:${port}/api/callback`, {
      method: "POST",
      headers: { origin: `http://${host}:${port}`, "content-type": "application/json" },
      body: JSON.stringify(lead(`first-run-${name}@example.com`)),
    });
    fromLoopback.push(`${host}: ${res.status}`);
  }

  // 3. Links on the listening port: the operator signs up (OPERATOR_EMAILS) through the mailed link.
  const operator = new Client({ origin: site });
  await signUpVerified(operator, site, OPERATOR);
  const mail = await operator.request(site, `/dev/mailbox.json?to=${encodeURIComponent(OPERATOR)}`);
  const link = mail.data.find((m) => /verify/i.test(m.subject))?.text.match(/https?:\/\/\S+/)?.[0] ?? "";
  report.check(
    "sign-up from its own page is taken, and the emailed link is built on the port it listens on",
    link.startsWith(`${site}/api/auth/verify-email?`),
    { link: link.replace(/token=[^&]+/, "token=…") },
  );

  // The console takes only a session signed in with a second factor.
  await enrolTwoFactor(operator, site);

  /** The callback leads the console's Leads table lists (the operator's view of what was stored). */
  const leadsListed = async () => {
    const admin = await operator.request(site, "/admin/leads?q=first-run-&size=100");
    if (admin.status !== 200) throw new Error(`/admin answered ${admin.status}`);
    return ["localhost", "ipv4", "ipv6", "refused"].filter((name) => admin.text.includes(`first-run-${name}@example.com`));
  };
  const listed = await leadsListed();
  report.check(
    "a form posted from http://localhost:PORT, http://127.0.0.1:PORT and http://[::1]:PORT is taken and its lead stored",
    page.status === 200 &&
      page.text.includes("Callback Requested!") &&
      fromLoopback.every((r) => r.endsWith(": 200")) &&
      listed.join() === "localhost,ipv4,ipv6",
    { liveTraining: page.status, fromLoopback, listed },
  );

  // 4. Another origin.
  const refused = await postForm(site, "/live-training", "http://localhost:3000", lead("first-run-refused@example.com"));
  const logged = await waitFor("the refusal's log line", () =>
    server.output
      .join("")
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === "cross-origin request refused"),
  );
  report.check(
    "a form from another origin gets a 403 page saying why, and a log line naming the expected and the received origin",
    refused.status === 403 &&
      refused.type.startsWith("text/html") &&
      refused.text.includes("This form was refused because it came from another address") &&
      refused.text.includes("<code>http://localhost:3000</code>") &&
      refused.text.includes(`<code>${site}</code>`) &&
      logged.received === "http://localhost:3000" &&
      logged.expected.split(" ").includes(site) &&
      !(await leadsListed()).includes("refused"),
    { status: refused.status, logged: { expected: logged.expected, received: logged.received } },
  );
} catch (error) {
  report.fail("first run", error);
} finally {
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
}

const summary = report.write();
process.exit(summary.failed > 0 ? 1 : 0);
