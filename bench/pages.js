// Prints, for /, /apps and /packages: the initial JS and CSS the page loads (raw and gzip bytes),
// and Lighthouse mobile scores (and the metrics behind the performance score) measured with the
// system Chromium; then every route's JS as a document load brings it (the entry plus the route
// chain's modules and imports, from React Router's client manifest).
//
//   npm run bench                     builds if needed, starts a server on a temp data folder
//   BENCH_URL=http://host:port npm run bench   measures an already running server
//   BENCH_SKIP_LIGHTHOUSE=1 npm run bench      bytes only
//   BENCH_LIGHTHOUSE_RUNS=5 npm run bench      Lighthouse runs per page (default 3): the run with the
//                                              median performance score is reported, with the range,
//                                              as Lighthouse advises on machines whose speed varies
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { SERVER_ENV, SERVER_NODE_FLAGS } from "../app/server/process/processes.server.js";

const PAGES = ["/", "/apps", "/packages"];
const LIGHTHOUSE_RUNS = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS) || 3);
const CHROME = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

async function startServer() {
  const buildDir = process.env.BUILD_DIR || "build";
  if (!existsSync(path.join(buildDir, "server/index.js"))) {
    const r = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
    if (r.status !== 0) process.exit(1);
  }
  const port = 3900 + Math.floor(Math.random() * 90);
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, "server.js"], {
    env: {
      ...SERVER_ENV,
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "bench-")),
      DATABASE_URL: "",
    },
    stdio: "ignore",
  });
  const url = `http://localhost:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, stop: () => child.kill("SIGTERM") };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGKILL");
  throw new Error("server did not start");
}

/** Scripts, module preloads and stylesheets referenced by the server-rendered HTML. */
function initialAssets(html) {
  const js = new Set();
  const css = new Set();
  for (const m of html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)) js.add(m[1]);
  for (const m of html.matchAll(/<script[^>]+src="([^"]+)"/g)) js.add(m[1]);
  for (const m of html.matchAll(/import\s*(?:\*\s*as\s*\w+\s*from\s*)?\(?"([^"]+\.js)"/g)) js.add(m[1]);
  // The boot script adds the preloads itself after the first paint (docs/decisions/0016).
  for (const m of html.matchAll(/for \(const href of (\[[^\]]*\])\)/g)) for (const href of JSON.parse(m[1])) js.add(href);
  for (const m of html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)) css.add(m[1]);
  return { js: [...js], css: [...css] };
}

async function sizeOf(base, urls) {
  let raw = 0;
  let gzip = 0;
  for (const u of urls) {
    const body = Buffer.from(await (await fetch(new URL(u, base))).arrayBuffer());
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
  }
  return { files: urls.length, raw, gzip };
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const ms = (n) => `${Math.round(n)} ms`.padStart(7);
const metricRows = [];

/**
 * Every route's JS on a document load by React Router: the client entry and, for the route and each
 * of its parents, its module and imports (from React Router's client manifest, whose URL a hydrated
 * page names; the page itself carries only its own routes inline, so the manifest file is not
 * counted). Layouts are listed too. `/` and /ref/{username} are islands pages (docs/decisions/0019):
 * a document load of them brings only the islands script of the table above, so their rows are
 * what React Router would bring.
 */
async function printRouteJs(base) {
  const html = await (await fetch(new URL("/apps", base))).text();
  const manifestUrl = /\/assets\/manifest-[\w-]+\.js/.exec(html)?.[0];
  if (!manifestUrl) {
    console.log("\n(no client manifest found: route JS not listed)");
    return;
  }
  const text = await (await fetch(new URL(manifestUrl, base))).text();
  const manifest = JSON.parse(text.slice(text.indexOf("=") + 1).replace(/;\s*$/, ""));
  const sizes = new Map();
  const gzipOf = async (url) => {
    if (!sizes.has(url))
      sizes.set(url, gzipSync(Buffer.from(await (await fetch(new URL(url, base))).arrayBuffer()), { level: 9 }).length);
    return sizes.get(url);
  };
  const rows = [];
  for (const route of Object.values(manifest.routes)) {
    if (!route.hasDefaultExport) continue;
    const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
    for (let r = route; r; r = manifest.routes[r.parentId]) {
      if (r.module) files.add(r.module);
      for (const i of r.imports ?? []) files.add(i);
    }
    let gzip = 0;
    for (const f of files) gzip += await gzipOf(f);
    rows.push([route.id, files.size, gzip]);
  }
  rows.sort((a, b) => b[2] - a[2]);
  console.log("\nEvery route's JS on a React Router document load (entry + the route chain's modules and imports)");
  console.log("route                                 | files | JS gzip");
  for (const [id, files, gzip] of rows) console.log(`${id.padEnd(37)} | ${String(files).padStart(5)} | ${kb(gzip).padStart(8)}`);
}

async function lighthouseScores(url) {
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", formFactor: "mobile" });
    const c = result.lhr.categories;
    const score = (k) => Math.round((c[k]?.score ?? 0) * 100);
    const metric = (k) => result.lhr.audits[k]?.numericValue ?? NaN;
    return {
      performance: score("performance"),
      accessibility: score("accessibility"),
      "best-practices": score("best-practices"),
      seo: score("seo"),
      metrics: {
        fcp: metric("first-contentful-paint"),
        lcp: metric("largest-contentful-paint"),
        tbt: metric("total-blocking-time"),
        cls: metric("cumulative-layout-shift"),
        si: metric("speed-index"),
      },
      // Audits that cost points, for the reader who wants to improve the score.
      failing: Object.values(result.lhr.audits)
        .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode === "numeric")
        .map((a) => a.id),
    };
  } finally {
    await chrome.kill();
  }
}

const server = process.env.BENCH_URL ? { url: process.env.BENCH_URL, stop() {} } : await startServer();
try {
  console.log(`bench/pages.js against ${server.url} (${new Date().toISOString()})`);
  console.log(
    `page        | JS files | JS raw    | JS gzip  | CSS raw  | CSS gzip | Lighthouse perf/a11y/bp/seo (median of ${LIGHTHOUSE_RUNS})`,
  );
  for (const p of PAGES) {
    const html = await (await fetch(new URL(p, server.url))).text();
    const assets = initialAssets(html);
    const js = await sizeOf(server.url, assets.js);
    const css = await sizeOf(server.url, assets.css);
    let lh = "skipped";
    if (!process.env.BENCH_SKIP_LIGHTHOUSE) {
      try {
        const runs = [];
        for (let i = 0; i < LIGHTHOUSE_RUNS; i++) runs.push(await lighthouseScores(new URL(p, server.url).href));
        runs.sort((a, b) => a.performance - b.performance || b.metrics.tbt - a.metrics.tbt);
        const s = runs[Math.floor((runs.length - 1) / 2)];
        const perf = runs.map((r) => r.performance);
        const range = runs.length > 1 ? ` (perf ${Math.min(...perf)}-${Math.max(...perf)} over ${runs.length} runs)` : "";
        lh = `${s.performance}/${s.accessibility}/${s["best-practices"]}/${s.seo}${range}`;
        const m = s.metrics;
        metricRows.push(
          `${p.padEnd(11)} | ${ms(m.fcp)} | ${ms(m.lcp)} | ${ms(m.tbt)} | ${m.cls.toFixed(3).padStart(6)} | ${ms(m.si)} | ${s.failing.join(", ") || "-"}`,
        );
      } catch (error) {
        lh = `failed: ${error instanceof Error ? error.message : error}`;
      }
    }
    console.log(
      `${p.padEnd(11)} | ${String(js.files).padStart(8)} | ${kb(js.raw).padStart(9)} | ${kb(js.gzip).padStart(8)} | ${kb(css.raw).padStart(8)} | ${kb(css.gzip).padStart(8)} | ${lh}`,
    );
  }
  if (metricRows.length) {
    console.log(`\nLighthouse mobile metrics of the median run (simulated slow 4G, 4x CPU slowdown)`);
    console.log("page        |     FCP |     LCP |     TBT |    CLS |      SI | audits below 0.9");
    for (const row of metricRows) console.log(row);
  }
  await printRouteJs(server.url);
} finally {
  server.stop();
}
