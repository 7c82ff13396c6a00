// Cold burst (the load test's slowest answers): a freshly started server, its page cache
// empty, receives COLD_BURST_VISITORS anonymous requests at the same moment for a handful of
// popular pages (/, /apps, /packages, two /apps filters), each from a visitor of its own. Prints,
// per page, how many of the answers were rendered (not from the page cache) and p50 / p99 / max
// latency; then the same burst again on the now warm cache, for comparison.
//
//   node bench/cold-burst.js              builds if needed (BUILD_DIR), starts `node server.js` on a
//                                         throw-away PGlite folder (BENCH_DATABASE_URL: PostgreSQL)
//   COLD_BURST_VISITORS=400               concurrent requests per burst (default 400)
//
// Exits 1 when any answer is not 200.
import { fmt, freshIp, loadAverage, request, startServer, summarise, table } from "./lib/common.js";

const VISITORS = Number(process.env.COLD_BURST_VISITORS ?? 400);
const PAGES = ["/", "/apps", "/packages", "/apps?view=list", "/apps?industry=Retail+%26+E-commerce"];

const server = await startServer();
const host = new URL(server.origin).host;
const before = await loadAverage();
console.log(
  `bench/cold-burst.js against ${server.url} (${new Date().toISOString()}): ${VISITORS} requests at once over ` +
    `${PAGES.length} pages; load average ${before.loadavg.join(" ")} (${before.cpus} cores)`,
);

let failed = 0;
async function burst(label) {
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: VISITORS }, (_, i) => {
      const p = PAGES[i % PAGES.length];
      return request(server.url, { path: p, ip: freshIp(), host, headers: { accept: "text/html" } }).then((r) => ({ p, r }));
    }),
  );
  const wall = performance.now() - started;
  const rows = PAGES.map((p) => {
    const mine = answers.filter((a) => a.p === p);
    const rendered = mine.filter((a) => a.r.headers["x-page-cache"] !== "hit").length;
    const bad = mine.filter((a) => a.r.status !== 200).length;
    failed += bad;
    const s = summarise(mine.map((a) => a.r.ms));
    return [p, mine.length, rendered, bad, fmt(s.p50), fmt(s.p99), fmt(s.max)];
  });
  const all = summarise(answers.map((a) => a.r.ms));
  const rendered = answers.filter((a) => a.r.headers["x-page-cache"] !== "hit").length;
  rows.push([
    "all",
    answers.length,
    rendered,
    answers.filter((a) => a.r.status !== 200).length,
    fmt(all.p50),
    fmt(all.p99),
    fmt(all.max),
  ]);
  console.log(`\n${label} (${(wall / 1000).toFixed(2)} s for the burst)`);
  console.log(table(["page", "requests", "rendered", "not 200", "p50 ms", "p99 ms", "max ms"], rows));
}

try {
  await burst("Cold cache");
  await burst("Warm cache");
} finally {
  await server.stop();
  server.removeData();
}
if (failed > 0) {
  console.error(`${failed} answers were not 200`);
  process.exit(1);
}
