// Prints, for /, /apps and /packages: the initial JS and CSS the page loads (raw and gzip bytes),
// and Lighthouse mobile scores measured with the system Chromium.
//
//   npm run bench                     builds if needed, starts a server on a temp data folder
//   BENCH_URL=http://host:port npm run bench   measures an already running server
//   BENCH_SKIP_LIGHTHOUSE=1 npm run bench      bytes only
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";

const PAGES = ["/", "/apps", "/packages"];
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
  const child = spawn(process.execPath, ["server.js"], {
    env: {
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
  for (const m of html.matchAll(/import\s*(?:\*\s*as\s*\w+\s*from\s*)?"([^"]+\.js)"/g)) js.add(m[1]);
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

async function lighthouseScores(url) {
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", formFactor: "mobile" });
    const c = result.lhr.categories;
    const score = (k) => Math.round((c[k]?.score ?? 0) * 100);
    return {
      performance: score("performance"),
      accessibility: score("accessibility"),
      "best-practices": score("best-practices"),
      seo: score("seo"),
    };
  } finally {
    await chrome.kill();
  }
}

const server = process.env.BENCH_URL ? { url: process.env.BENCH_URL, stop() {} } : await startServer();
try {
  console.log(`bench/pages.js against ${server.url} (${new Date().toISOString()})`);
  console.log("page        | JS files | JS raw    | JS gzip  | CSS raw  | CSS gzip | Lighthouse perf/a11y/bp/seo");
  for (const p of PAGES) {
    const html = await (await fetch(new URL(p, server.url))).text();
    const assets = initialAssets(html);
    const js = await sizeOf(server.url, assets.js);
    const css = await sizeOf(server.url, assets.css);
    let lh = "skipped";
    if (!process.env.BENCH_SKIP_LIGHTHOUSE) {
      try {
        const s = await lighthouseScores(new URL(p, server.url).href);
        lh = `${s.performance}/${s.accessibility}/${s["best-practices"]}/${s.seo}`;
      } catch (error) {
        lh = `failed: ${error instanceof Error ? error.message : error}`;
      }
    }
    console.log(
      `${p.padEnd(11)} | ${String(js.files).padStart(8)} | ${kb(js.raw).padStart(9)} | ${kb(js.gzip).padStart(8)} | ${kb(css.raw).padStart(8)} | ${kb(css.gzip).padStart(8)} | ${lh}`,
    );
  }
} finally {
  server.stop();
}
