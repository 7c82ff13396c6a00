// CPU a signed-in page of two builds, measured at once: both servers run side by side and every
// request goes to one, then the same request to the other (the order alternating), so the host's
// load, which moves a single build's figure from one run to the next on these shared machines by
// more than most changes are worth, falls on both alike. Prints each round's CPU a request of each
// build and their ratio.
//
//   BUILD_DIRS=build-main,build node bench/paired-builds.js
//                               PGlite, a fresh folder each; build-main is another commit's
//                               `npm run build` output (BUILD_DIR=<folder> builds into one)
//   BUILD_DIRS=/tmp/other-checkout,. node bench/paired-builds.js
//                               a checkout (a folder with server.js) runs its own server.js and
//                               build/, so a change outside the bundle (server.js) is measured too
//   PAIRED_POSTGRES=postgres://postgres@127.0.0.1:5432 BUILD_DIRS=... node bench/paired-builds.js
//                               PostgreSQL: databases paired_a and paired_b there, made anew and
//                               dropped at the end
//   PAIRED_PAGES=/dashboard/addons   the paths (default: the five dashboard pages, in turn)
//   PAIRED_ACCOUNTS (20), PAIRED_REQUESTS (1500 a build a round), PAIRED_ROUNDS (4)
//
// The first round is a warm-up and is printed apart: in runs of one build against itself the two
// servers differ most there. How far apart the same build comes out in the rounds after it is in
// bench/RESULTS.md; read a smaller difference as none.
import { existsSync } from "node:fs";
import path from "node:path";
import {
  cpuSeconds,
  DASHBOARD_PAGES,
  emptyPostgresDatabase,
  manyAccountsTraffic,
  request,
  startServer,
  trialAccounts,
} from "./lib/common.js";

const builds = (process.env.BUILD_DIRS ?? "").split(",").filter(Boolean);
if (builds.length !== 2) {
  console.error("usage: BUILD_DIRS=<build A>,<build B> node bench/paired-builds.js");
  process.exit(2);
}
const PAGES = process.env.PAIRED_PAGES ? process.env.PAIRED_PAGES.split(",") : DASHBOARD_PAGES;
const ACCOUNTS = Number(process.env.PAIRED_ACCOUNTS ?? 20);
const REQUESTS = Number(process.env.PAIRED_REQUESTS ?? 1500);
const ROUNDS = Number(process.env.PAIRED_ROUNDS ?? 4);
const POSTGRES = process.env.PAIRED_POSTGRES;

const servers = [];
/** Each PostgreSQL server's database, dropped once its server has stopped. */
const databases = [];
for (const [i, build] of builds.entries()) {
  const checkout = existsSync(path.join(build, "server.js")) ? path.resolve(build) : undefined;
  const database = POSTGRES ? await emptyPostgresDatabase(POSTGRES, `paired_${"ab"[i]}`) : null;
  if (database) databases.push(database);
  const server = await startServer({
    cwd: checkout,
    buildDir: checkout ? path.join(checkout, "build") : path.resolve(build),
    databaseUrl: database?.url ?? "",
  });
  servers.push(server);
  server.accounts = await trialAccounts(server, ACCOUNTS);
}
// bench:traffic's traffic over account numbers: each request goes to the same account number and
// page on both servers.
const traffic = manyAccountsTraffic(
  Array.from({ length: ACCOUNTS }, (_, a) => a),
  PAGES,
);

async function send(server, { account, path: pagePath }) {
  const { ip, host, cookie } = server.accounts[account];
  const answer = await request(server.url, { path: pagePath, ip, host, headers: { cookie } });
  if (answer.status !== 200) throw new Error(`${pagePath} answered ${answer.status}`);
}

try {
  console.log(`${builds[0]} (A) against ${builds[1]} (B): ${POSTGRES ? "PostgreSQL" : "PGlite"}, ${PAGES.join(" ")}`);
  for (let round = 0; round <= ROUNDS; round++) {
    const before = await Promise.all(servers.map((s) => cpuSeconds(s.pid)));
    for (let n = 0; n < REQUESTS; n++) {
      const visit = traffic.next();
      const [first, second] = n % 2 ? [servers[1], servers[0]] : servers;
      await send(first, visit);
      await send(second, visit);
    }
    const after = await Promise.all(servers.map((s) => cpuSeconds(s.pid)));
    const [a, b] = after.map((c, i) => (1000 * (c.server - before[i].server)) / REQUESTS);
    const label = round === 0 ? "warm-up" : `round ${round}`;
    console.log(`${label}: A ${a.toFixed(2)} ms, B ${b.toFixed(2)} ms of CPU a request, B/A ${(b / a).toFixed(3)}`);
  }
} finally {
  for (const server of servers) {
    await server.stop();
    server.removeData();
  }
  for (const database of databases) await database.drop();
}
