// Production install proof: the built bundle runs with production dependencies only.
//
// Copies what a production host receives (app/server/process/runtime-files.js, the same files the
// Dockerfile's runtime stage copies) into an empty temporary folder, installs there with
// `npm ci --omit=dev` from npm's local cache (no network: the cache holds every package since this
// checkout's own `npm ci`), checks that no development tool (Vite, React Router's dev package,
// TypeScript, Vitest) was installed, then starts the server there as production starts it
// (SERVER_NODE_FLAGS and SERVER_ENV) on a throw-away PGlite folder and asks for /healthz and the home
// page. A runtime import of a devDependency fails the start.
//
// Usage: npm run build && node tests/reliability/production-install.js
// Env: BUILD_DIR (default build), REL_VERBOSE=1 (server and npm output).
// Writes test-reports/production-install.json ({ passed, failed, skipped, checks }).
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SERVER_ENV, SERVER_NODE_FLAGS } from "../../app/server/process/processes.server.js";
import { RUNTIME_FILES } from "../../app/server/process/runtime-files.js";
import { BUILD_DIR, freePort, Report, ROOT, waitFor } from "./lib.js";

/** Build tools that must not be in a production install. */
const DEV_ONLY = ["vite", "@react-router/dev", "typescript", "vitest", "@playwright/test", "drizzle-kit"];

const report = new Report("production-install");
const verbose = Boolean(process.env.REL_VERBOSE);

if (!existsSync(path.join(BUILD_DIR, "server/index.js"))) {
  console.error(`No build in ${BUILD_DIR}: run \`npm run build\` first.`);
  process.exit(1);
}

const dir = mkdtempSync(path.join(tmpdir(), "production-install-"));
let child;
try {
  for (const file of RUNTIME_FILES) cpSync(path.join(ROOT, file), path.join(dir, file), { recursive: true });
  cpSync(BUILD_DIR, path.join(dir, "build"), { recursive: true });

  const installStarted = performance.now();
  const install = spawnSync(
    "npm",
    ["ci", "--omit=dev", "--omit=optional", "--offline", "--no-audit", "--no-fund", "--ignore-scripts"],
    {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, NODE_ENV: "production" },
    },
  );
  if (verbose) process.stderr.write(`${install.stdout}${install.stderr}`);
  report.check(
    "npm ci --omit=dev installs from the lockfile",
    install.status === 0,
    { installSeconds: Number(((performance.now() - installStarted) / 1000).toFixed(1)) },
    `npm ci exited ${install.status}: ${(install.stderr || install.stdout).slice(-1500)}`,
  );
  if (install.status !== 0) throw new Error("install failed");

  const present = DEV_ONLY.filter((name) => existsSync(path.join(dir, "node_modules", name)));
  report.check("no build tool is installed", present.length === 0, undefined, `installed anyway: ${present.join(", ")}`);

  // The release step runs on the same install (no drizzle-kit), then the server starts without
  // migrating (MIGRATE_ON_BOOT=0): what a production deploy does.
  const migrate = spawnSync(process.execPath, ["scripts/db-migrate.js"], {
    cwd: dir,
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: path.join(dir, "data"), LOG_LEVEL: "warn" },
  });
  report.check(
    "the release step (npm run db:migrate) runs without dev dependencies",
    migrate.status === 0 && /Release step done on pglite: \d+ migration/.test(migrate.stdout),
    { output: migrate.stdout.trim().split("\n").at(-1) },
    `db:migrate exited ${migrate.status}: ${(migrate.stderr || migrate.stdout).slice(-1500)}`,
  );

  const port = await freePort();
  const output = [];
  child = spawn(process.execPath, [...SERVER_NODE_FLAGS, "server.js"], {
    cwd: dir,
    // A clean environment: nothing inherited points the server at another database or provider.
    env: {
      ...SERVER_ENV,
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: path.join(dir, "data"),
      MIGRATE_ON_BOOT: "0",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let exited = null;
  child.on("exit", (code, signal) => (exited = { code, signal }));
  for (const stream of [child.stdout, child.stderr])
    stream.on("data", (chunk) => {
      output.push(chunk.toString());
      if (verbose) process.stderr.write(`[server] ${chunk}`);
    });

  const base = `http://localhost:${port}`;
  try {
    await waitFor("/healthz", async () => {
      if (exited) throw new Error(`server exited ${JSON.stringify(exited)}: ${output.join("").slice(-2000)}`);
      return (await fetch(`${base}/healthz`)).ok;
    });
    report.pass("server.js starts without dev dependencies and /healthz answers 200");
  } catch (error) {
    report.fail("server.js starts without dev dependencies and /healthz answers 200", error);
    throw error;
  }

  const home = await fetch(`${base}/`);
  const html = await home.text();
  report.check(
    "the home page renders (200, HTML with the site's heading)",
    home.status === 200 && /<h1[\s>]/.test(html) && html.includes("/assets/"),
    { status: home.status, bytes: html.length },
    `GET / answered ${home.status}: ${html.slice(0, 300)}`,
  );
  const asset = html.match(/\/assets\/[^"']+\.css/)?.[0];
  const css = asset ? await fetch(`${base}${asset}`) : null;
  report.check("the built assets are served", css?.status === 200, { asset }, `GET ${asset} answered ${css?.status}`);
} catch (error) {
  if (!report.checks.some((c) => c.status === "failed")) report.fail("production install", error);
} finally {
  if (child && child.exitCode === null) {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
  rmSync(dir, { recursive: true, force: true });
}

const summary = report.write();
process.exit(summary.failed > 0 ? 1 : 0);
