// Start to healthy: the time from spawning `node server.js` to its first 200 on /healthz, over
// several starts of each build, interleaved so both see the same host load. Every start opens a
// database that is already migrated (the first start of each build, which may migrate, is not
// counted), as a restart or a new replica does.
//   BUILD_DIRS=build-main,build npm run bench:start
//   BUILD_DIRS=build-main,build BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/start_bench node bench/start.js
// Builds are folders `npm run build` made (copy one aside to compare); an entry may add environment
// settings after the folder, separated by spaces, to compare a setting on one build:
//   BUILD_DIRS="build NODE_DISABLE_COMPILE_CACHE=1,build" npm run bench:start
// Prints each entry's median, minimum and maximum, and the ratio of the medians to the first entry's.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SERVER_ENV, SERVER_NODE_FLAGS } from "../app/server/process/processes.server.js";

const builds = (process.env.BUILD_DIRS ?? "build").split(",").filter(Boolean);
const runs = Number(process.env.START_RUNS ?? 7);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? "";
const port = Number(process.env.START_PORT ?? 3171);

/** An entry of BUILD_DIRS: the build folder, then NAME=value settings for its starts. */
function parseEntry(entry) {
  const [buildDir, ...settings] = entry.trim().split(/\s+/);
  return { buildDir, env: Object.fromEntries(settings.map((s) => [s.slice(0, s.indexOf("=")), s.slice(s.indexOf("=") + 1)])) };
}

async function startOnce(entry, dataDir) {
  const { buildDir, env } = parseEntry(entry);
  const started = performance.now();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, "server.js"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...SERVER_ENV,
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      BUILD_DIR: buildDir,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "warn",
      PASSWORD_HASH_COST: "test",
      ...env,
    },
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${buildDir}: the server exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return performance.now() - started;
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

const dataDir = mkdtempSync(path.join(tmpdir(), "bench-start-"));
const times = Object.fromEntries(builds.map((b) => [b, []]));
try {
  // The first start creates (PGlite) or migrates the database: not what a restart costs.
  for (const build of builds) await startOnce(build, dataDir);
  for (let i = 0; i < runs; i++) for (const build of builds) times[build].push(await startOnce(build, dataDir));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const first = median(times[builds[0]]);
console.log(`engine: ${databaseUrl ? "PostgreSQL" : "PGlite"}; ${runs} starts of each build, interleaved`);
for (const build of builds) {
  const xs = times[build];
  console.log(
    `${build}: median ${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)}); ` +
      `${(median(xs) / first).toFixed(2)}x of ${builds[0]}`,
  );
}
