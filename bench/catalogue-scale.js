// Catalogue scale (issue 6): the /apps page's catalogue query as the catalogue grows. Fills a
// throw-away database with CATALOGUE_APPS (100,000) apps, then runs the page's own query function
// (listApps from app/server/catalogue/apps.server.ts, loaded from source through Vite's SSR loader,
// so the SQL is exactly the page's) CATALOGUE_RUNS times per search type and prints p50/p99.
// The /apps loader takes every match from listApps, counts them and slices the first 12 in
// JavaScript, so "count" and "paging" cost what listApps costs.
// For comparison it also times what a fix would run: a count(*) plus a LIMIT 12 page in SQL, and
// both again with pg_trgm GIN indexes on name/description/industry. No app code is changed: the
// indexes exist only in the throw-away database.
//
//   node bench/catalogue-scale.js                               PGlite in a temp folder
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/catalogue-scale.js
//                                 PGlite, then PostgreSQL in a database this script creates
//                                 (bench_catalogue_<pid>) and drops; the URL's own database is
//                                 only used to issue CREATE/DROP DATABASE
//   CATALOGUE_APPS=100000 CATALOGUE_RUNS=20 CATALOGUE_ENGINES=pglite,postgres
//   CATALOGUE_BUDGET_SECONDS=20: a search stops after this long once it has 5 timed runs
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, asc, eq, ilike, or, sql } from "drizzle-orm";
import pg from "pg";
import { createServer } from "vite";
import { fmt, loadAverage, summarise, table } from "./lib/common.js";

const TOTAL = Number(process.env.CATALOGUE_APPS ?? 100_000);
const RUNS = Number(process.env.CATALOGUE_RUNS ?? 20);
const BUDGET_S = Number(process.env.CATALOGUE_BUDGET_SECONDS ?? 20);
const ENGINES = (process.env.CATALOGUE_ENGINES || "pglite,postgres").split(",");
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
const { listApps, getApp, escapeLike } = await load("/app/server/catalogue/apps.server.ts");
const { seedCatalogue } = await load("/app/server/catalogue/seed.server.ts");
const schema = await load("/app/server/db/schema.ts");
const { allApps } = await load("/app/catalogue/apps.ts");
const { apps } = schema;

/** Search types: what a visitor can ask the /apps page for. */
const SEARCHES = [
  { name: "all (default /apps)", filters: {} },
  { name: "industry=Financial Services", filters: { industry: "Financial Services" } },
  { name: "q=ai (2 chars, very common)", filters: { q: "ai" } },
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
    rows.push({ ...t, id, name: `${t.name} #${id}`, isPopular: id % 20 === 0 });
  }
  return rows;
}

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

/** The same WHERE as listApps, for the proposed count + LIMIT queries. */
function where(filters) {
  const conditions = [eq(apps.isActive, true)];
  const q = filters.q?.trim();
  if (q) {
    const pattern = `%${escapeLike(q)}%`;
    conditions.push(or(ilike(apps.name, pattern), ilike(apps.description, pattern), ilike(apps.industry, pattern)));
  }
  if (filters.industry && filters.industry !== "All") conditions.push(eq(apps.industry, filters.industry));
  return and(...conditions);
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

/** listApps as the page runs it, and the proposed count(*) + first page. */
async function measure(db, label) {
  const out = [];
  for (const s of SEARCHES) {
    const page = await timeIt(async () => (await listApps(db, s.filters)).length);
    const paged = await timeIt(async () => {
      const [count, first] = await Promise.all([
        db
          .select({ n: sql`count(*)::int` })
          .from(apps)
          .where(where(s.filters)),
        db
          .select({
            id: apps.id,
            name: apps.name,
            description: apps.description,
            industry: apps.industry,
            features: apps.features,
          })
          .from(apps)
          .where(where(s.filters))
          .orderBy(asc(apps.id))
          .limit(PAGE_SIZE),
      ]);
      if (first.length > PAGE_SIZE) throw new Error("LIMIT ignored");
      return count[0].n;
    });
    out.push({ variant: label, search: s.name, listApps: page, countPlusPage: paged });
    console.log(
      `  ${label.padEnd(18)} ${s.name.padEnd(30)} ${String(page.rows).padStart(6)} rows  listApps p50 ${fmt(page.p50)} ms (n=${page.n})  count+LIMIT p50 ${fmt(paged.p50)} ms`,
    );
  }
  const byId = await timeIt(async () => ((await getApp(db, 54321)) ? 1 : 0));
  out.push({ variant: label, search: "getApp(54321) (reviews dialog)", listApps: byId, countPlusPage: null });
  return out;
}

async function trigramIndexes(db) {
  const t = performance.now();
  await db.execute(sql`create extension if not exists pg_trgm`);
  for (const col of ["name", "description", "industry"]) {
    await db.execute(sql.raw(`create index if not exists bench_apps_${col}_trgm on apps using gin (${col} gin_trgm_ops)`));
  }
  await db.execute(sql`analyze apps`);
  return (performance.now() - t) / 1000;
}

async function plan(db, filters) {
  const q = db.select({ id: apps.id }).from(apps).where(where(filters)).orderBy(asc(apps.id)).toSQL();
  const params = q.params.map((p) => (typeof p === "string" ? `'${p.replaceAll("'", "''")}'` : String(p)));
  const text = q.sql.replace(/\$(\d+)/g, (_, i) => params[Number(i) - 1]);
  const rows = (await db.execute(sql.raw(`explain ${text}`))).rows;
  return rows.map((r) => Object.values(r)[0]).join(" / ");
}

const results = [];
const notes = [];
const avg = await loadAverage();
console.log(
  `bench/catalogue-scale.js: ${TOTAL} apps, ${RUNS} runs per search (after 1 warm-up); ${new Date().toISOString()}; ` +
    `load average ${avg.loadavg.join(" ")} (${avg.cpus} cores)`,
);

for (const engine of ENGINES) {
  let db;
  if (engine === "pglite") {
    const dataDir = mkdtempSync(path.join(tmpdir(), "bench-catalogue-"));
    const opened = await openDatabase({ dataDir });
    db = opened.db;
    const filled = await fill(db);
    console.log(`\n[pglite] ${filled.rows} apps inserted in ${filled.seconds.toFixed(1)} s (${dataDir})`);
    results.push(...(await measure(db, "pglite")));
    notes.push(`pglite plan q=invoice: ${await plan(db, { q: "invoice" })}`);
    await opened.close();
    // PGlite loads pg_trgm only when the instance is created with it: reopen the same folder.
    const { PGlite } = await import("@electric-sql/pglite");
    const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
    const { drizzle } = await import("drizzle-orm/pglite");
    const client = new PGlite({ dataDir, extensions: { pg_trgm } });
    await client.waitReady;
    db = drizzle(client, { schema });
    const built = await trigramIndexes(db);
    console.log(
      `[pglite] pg_trgm loaded (@electric-sql/pglite/contrib/pg_trgm); 3 GIN trigram indexes built in ${built.toFixed(1)} s`,
    );
    results.push(...(await measure(db, "pglite + pg_trgm")));
    notes.push(`pglite+trgm plan q=invoice: ${await plan(db, { q: "invoice" })}`);
    await client.close();
    rmSync(dataDir, { recursive: true, force: true });
  } else if (engine === "postgres") {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) {
      console.log("\n[postgres] skipped: TEST_DATABASE_URL is not set");
      continue;
    }
    const name = `bench_catalogue_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
    const dbUrl = new URL(url);
    dbUrl.pathname = `/${name}`;
    try {
      const opened = await openDatabase({ databaseUrl: dbUrl.href, dataDir: "" });
      db = opened.db;
      const filled = await fill(db);
      console.log(`\n[postgres] ${filled.rows} apps inserted in ${filled.seconds.toFixed(1)} s (database ${name})`);
      results.push(...(await measure(db, "postgres")));
      notes.push(`postgres plan q=invoice: ${await plan(db, { q: "invoice" })}`);
      const built = await trigramIndexes(db);
      console.log(`[postgres] 3 GIN trigram indexes built in ${built.toFixed(1)} s`);
      results.push(...(await measure(db, "postgres + pg_trgm")));
      notes.push(`postgres+trgm plan q=invoice: ${await plan(db, { q: "invoice" })}`);
      await opened.close();
    } finally {
      await admin.query(`drop database if exists ${name}`).catch((e) => console.log(`could not drop ${name}: ${e.message}`));
      await admin.end();
    }
  } else {
    console.log(`unknown engine ${engine}`);
  }
}
await vite.close();

console.log("");
console.log(
  table(
    ["engine", "search", "rows", "listApps p50 ms", "p99 ms", "count+LIMIT 12 p50 ms", "p99 ms"],
    results.map((r) => [
      r.variant,
      r.search,
      r.listApps.rows,
      fmt(r.listApps.p50),
      fmt(r.listApps.p99),
      r.countPlusPage ? fmt(r.countPlusPage.p50) : "-",
      r.countPlusPage ? fmt(r.countPlusPage.p99) : "-",
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
