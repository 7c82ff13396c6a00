// Catalogue scale: the /apps page's catalogue query as the catalogue grows. Fills a
// throw-away database with CATALOGUE_APPS (100,000) apps, then runs the page's own query function
// (searchApps from app/server/catalogue/apps.server.ts, loaded from source through Vite's SSR loader,
// so the SQL, the migrations and the trigram indexes are exactly the page's) CATALOGUE_RUNS times per
// search type and prints p50/p99. searchApps is what the /apps loader awaits: the first `show`
// matches (LIMIT, by id) and a count(*) of all of them, run side by side. getApp is the reviews
// dialog's lookup of an app beyond the page.
// CATALOGUE_BEFORE=1 also times the query the loader ran before (every match fetched, then counted
// and sliced in JavaScript), on the same database and indexes, for comparison.
//
//   node bench/catalogue-scale.js                               PGlite in a temp folder
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/catalogue-scale.js
//                                 PGlite, then PostgreSQL in a database this script creates
//                                 (bench_catalogue_<pid>) and drops; the URL's own database is
//                                 only used to issue CREATE/DROP DATABASE
//   CATALOGUE_APPS=100000 CATALOGUE_RUNS=20 CATALOGUE_ENGINES=pglite,postgres CATALOGUE_BEFORE=1
//   CATALOGUE_BUDGET_SECONDS=20: a search stops after this long once it has 5 timed runs
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { asc, getTableColumns, sql } from "drizzle-orm";
import { createServer } from "vite";
import { emptyPostgresDatabase, fmt, loadAverage, summarise, table } from "./lib/common.js";

const TOTAL = Number(process.env.CATALOGUE_APPS ?? 100_000);
const RUNS = Number(process.env.CATALOGUE_RUNS ?? 20);
const BUDGET_S = Number(process.env.CATALOGUE_BUDGET_SECONDS ?? 20);
const ENGINES = (process.env.CATALOGUE_ENGINES || "pglite,postgres").split(",");
const BEFORE = process.env.CATALOGUE_BEFORE === "1";
const PAGE_SIZE = 12;

const vite = await createServer({
  configFile: false,
  root: process.cwd(),
  logLevel: "error",
  appType: "custom",
  server: { middlewareMode: true, hmr: false, watch: null },
  resolve: { alias: { "~": path.resolve("app") } },
  optimizeDeps: { noDiscovery: true, include: [] },
});
const load = (p) => vite.ssrLoadModule(p);
const { openDatabase } = await load("/app/server/db/client.server.ts");
const { searchApps, getApp, appsWhere } = await load("/app/server/catalogue/apps.server.ts");
const { seedCatalogue } = await load("/app/server/catalogue/seed.server.ts");
const schema = await load("/app/server/db/schema.ts");
const { allApps } = await load("/app/catalogue/apps.ts");
const { apps } = schema;

/** Search types: what a visitor can ask the /apps page for (show = cards on the page). */
const SEARCHES = [
  { name: "all (default /apps)", filters: {} },
  { name: "all, show=1000 (the maximum)", filters: {}, show: 1000 },
  { name: "industry=Financial Services", filters: { industry: "Financial Services" } },
  { name: "q=ai (2 chars, very common)", filters: { q: "ai" } },
  { name: "q=scheduler (word in names)", filters: { q: "scheduler" } },
  { name: "q=invoice (word)", filters: { q: "invoice" } },
  { name: "q=#54321 (one app)", filters: { q: "#54321" } },
  { name: "q=zzz-no-match", filters: { q: "zzz-no-match" } },
  { name: "q=bot + industry=Telecom.", filters: { q: "bot", industry: "Telecommunications" } },
];

/** 100k apps: the real 181 (seeded by the app) and clones of them with a running number. */
function generated(from, to) {
  const templates = allApps();
  const rows = [];
  for (let id = from; id <= to; id++) {
    const t = templates[(id - 1) % templates.length];
    rows.push({ ...t, id, slug: `${t.slug}-${id}`, name: `${t.name} #${id}`, isPopular: id % 20 === 0 });
  }
  return rows;
}

/** Inserts through the migrated schema, so the trigram indexes (fastupdate off) are maintained row by row. */
async function fill(db) {
  const seeded = await seedCatalogue(db);
  const started = performance.now();
  const BATCH = 1000;
  for (let from = seeded.apps + 1; from <= TOTAL; from += BATCH) {
    await db.insert(apps).values(generated(from, Math.min(TOTAL, from + BATCH - 1)));
  }
  await db.execute(sql`analyze apps`);
  const [{ n }] = (await db.execute(sql`select count(*)::int as n from apps`)).rows;
  return { rows: n, seconds: (performance.now() - started) / 1000 };
}

async function timeIt(fn) {
  await fn(); // warm-up (plans, caches)
  const times = [];
  let rows = 0;
  const budgetEnds = performance.now() + BUDGET_S * 1000;
  // A slow search stops after BUDGET_S seconds once it has 5 runs: "n" in the JSON says how many.
  for (let i = 0; i < RUNS && (i < 5 || performance.now() < budgetEnds); i++) {
    const t = performance.now();
    rows = await fn();
    times.push(performance.now() - t);
  }
  return { ...summarise(times), rows };
}

/** The loader's former query, for comparison: every match, counted and sliced in JavaScript. */
const { isActive: _internal, ...publicColumns } = getTableColumns(apps);
async function everyMatch(db, filters, show) {
  const where = appsWhere(filters);
  const rows = where ? await db.select(publicColumns).from(apps).where(where).orderBy(asc(apps.id)) : [];
  return { apps: rows.slice(0, show), total: rows.length };
}

async function measure(db, label) {
  const out = [];
  for (const s of SEARCHES) {
    const show = s.show ?? PAGE_SIZE;
    const after = await timeIt(async () => {
      const page = await searchApps(db, s.filters, show);
      if (page.apps.length !== Math.min(show, page.total)) throw new Error(`${s.name}: page of ${page.apps.length}`);
      return page.total;
    });
    const before = BEFORE ? await timeIt(async () => (await everyMatch(db, s.filters, show)).total) : null;
    if (before && before.rows !== after.rows) throw new Error(`${s.name}: ${before.rows} matches before, ${after.rows} now`);
    out.push({ engine: label, search: s.name, searchApps: after, before });
    console.log(
      `  ${label.padEnd(9)} ${s.name.padEnd(30)} ${String(after.rows).padStart(6)} matches  searchApps p50 ${fmt(after.p50)} ms p99 ${fmt(after.p99)} ms (n=${after.n})` +
        (before ? `  before: p50 ${fmt(before.p50)} ms (n=${before.n})` : ""),
    );
  }
  const byId = await timeIt(async () => ((await getApp(db, 54321)) ? 1 : 0));
  out.push({ engine: label, search: "getApp(54321) (reviews dialog)", searchApps: byId, before: null });
  return out;
}

/** EXPLAIN of the two statements searchApps sends, with the parameters inlined. */
async function plan(db, filters) {
  const where = appsWhere(filters);
  const explain = async (query) => {
    const q = query.toSQL();
    const params = q.params.map((p) => (typeof p === "string" ? `'${p.replaceAll("'", "''")}'` : String(p)));
    const text = q.sql.replace(/\$(\d+)/g, (_, i) => params[Number(i) - 1]);
    const rows = (await db.execute(sql.raw(`explain ${text}`))).rows;
    return rows.map((r) => String(Object.values(r)[0]).trim()).join(" / ");
  };
  const page = await explain(db.select({ id: apps.id }).from(apps).where(where).orderBy(asc(apps.id)).limit(PAGE_SIZE));
  const count = await explain(
    db
      .select({ n: sql`count(*)` })
      .from(apps)
      .where(where),
  );
  return `page: ${page}\n    count: ${count}`;
}

async function notesFor(db, label) {
  const out = [];
  for (const filters of [{}, { q: "ai" }, { q: "invoice" }]) {
    out.push(`${label} plan ${JSON.stringify(filters)}:\n    ${await plan(db, filters)}`);
  }
  const [size] = (
    await db.execute(
      sql`select pg_size_pretty(sum(pg_relation_size(indexrelid))) as s from pg_index where indrelid = 'apps'::regclass and indexrelid::regclass::text like '%trgm%'`,
    )
  ).rows;
  out.push(`${label} trigram indexes: ${size.s}`);
  return out;
}

const results = [];
const notes = [];
const avg = await loadAverage();
const commit = await import("node:child_process").then(({ execSync }) =>
  execSync("git rev-parse --short HEAD", { encoding: "utf8" }).trim(),
);
console.log(
  `bench/catalogue-scale.js: ${TOTAL} apps, ${RUNS} runs per search (after 1 warm-up); commit ${commit}; ${new Date().toISOString()}; ` +
    `load average ${avg.loadavg.join(" ")} (${avg.cpus} cores)`,
);

for (const engine of ENGINES) {
  if (engine === "pglite") {
    const dataDir = mkdtempSync(path.join(tmpdir(), "bench-catalogue-"));
    const opened = await openDatabase({ dataDir });
    try {
      const filled = await fill(opened.db);
      console.log(`\n[pglite] ${filled.rows} apps inserted in ${filled.seconds.toFixed(1)} s (${dataDir})`);
      results.push(...(await measure(opened.db, "pglite")));
      notes.push(...(await notesFor(opened.db, "pglite")));
    } finally {
      await opened.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  } else if (engine === "postgres") {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) {
      console.log("\n[postgres] skipped: TEST_DATABASE_URL is not set");
      continue;
    }
    const name = `bench_catalogue_${process.pid}`;
    const database = await emptyPostgresDatabase(url, name);
    try {
      const opened = await openDatabase({ databaseUrl: database.url, dataDir: "" });
      try {
        const filled = await fill(opened.db);
        const [{ version }] = (await opened.db.execute(sql`select split_part(version(), ' ', 2) as version`)).rows;
        console.log(`\n[postgres ${version}] ${filled.rows} apps inserted in ${filled.seconds.toFixed(1)} s (database ${name})`);
        results.push(...(await measure(opened.db, "postgres")));
        notes.push(...(await notesFor(opened.db, "postgres")));
      } finally {
        await opened.close();
      }
    } finally {
      await database.drop().catch((e) => console.log(`could not drop ${name}: ${e.message}`));
    }
  } else {
    console.log(`unknown engine ${engine}`);
  }
}
await vite.close();

console.log("");
console.log(
  table(
    ["engine", "search", "matches", "searchApps p50 ms", "p99 ms", ...(BEFORE ? ["before p50 ms", "p99 ms"] : [])],
    results.map((r) => [
      r.engine,
      r.search,
      r.searchApps.rows,
      fmt(r.searchApps.p50),
      fmt(r.searchApps.p99),
      ...(BEFORE ? [r.before ? fmt(r.before.p50) : "-", r.before ? fmt(r.before.p99) : "-"] : []),
    ]),
  ),
);
console.log("");
for (const n of notes) console.log(n);
const after = await loadAverage();
console.log(`load average after ${after.loadavg.join(" ")}`);
const out = process.env.CATALOGUE_OUT || "/tmp/bench-results/catalogue-scale.json";
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(
  out,
  JSON.stringify(
    {
      at: new Date().toISOString(),
      commit,
      total: TOTAL,
      runs: RUNS,
      loadAverage: { before: avg.loadavg, after: after.loadavg },
      results,
      notes,
    },
    null,
    2,
  ),
);
console.log(`wrote ${out}`);
