// `npm test`: every check, in the order that fails fastest. Each step's output streams through
// (the proofs' lanes print theirs as each lane ends); the first failing step stops the run with its
// exit code. Vitest and Playwright also write JSON reports, from which the closing "N passed,
// N failed" line is computed.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

// Not test-results/: Playwright empties that folder when it starts.
mkdirSync("test-reports", { recursive: true });
const VITEST_JSON = "test-reports/vitest.json";
const PLAYWRIGHT_JSON = "test-reports/playwright.json";
const FUZZ_JSON = "test-reports/fuzz.json";
// Kill -9 durability (PGlite; PostgreSQL too with TEST_DATABASE_URL) and two instances on one
// PostgreSQL (skipped without it): tests/reliability/.
const DURABILITY_JSON = "test-reports/durability.json";
const CLUSTER_JSON = "test-reports/cluster.json";
// HSTS and Secure cookies behind a TLS-terminating proxy (tests/reliability/https.js; needs openssl).
const HTTPS_JSON = "test-reports/https.json";
// Unsupported methods, a full disk under DATA_DIR (a tmpfs: needs root, skipped otherwise) and
// one JSON object per log line (tests/reliability/faults.js).
const FAULTS_JSON = "test-reports/faults.json";
// A first run without PUBLIC_SITE_URL on a port of its own, from a folder with a .env
// (tests/reliability/first-run.js).
const FIRST_RUN_JSON = "test-reports/first-run.json";
// Request ids and redaction in the log lines, /metrics behind its token (tests/reliability/observability.js).
const OBSERVABILITY_JSON = "test-reports/observability.json";
// A previous run's reports must not be counted as this run's.
for (const f of [
  VITEST_JSON,
  PLAYWRIGHT_JSON,
  FUZZ_JSON,
  DURABILITY_JSON,
  CLUSTER_JSON,
  HTTPS_JSON,
  FAULTS_JSON,
  FIRST_RUN_JSON,
  OBSERVABILITY_JSON,
])
  rmSync(f, { force: true });

const TEMPLATE = path.join(mkdtempSync(path.join(tmpdir(), "test-all-")), "data");

const OBSERVABILITY = ["observability", "node", ["tests/reliability/observability.js"]];
// Durability, cluster and observability empty this database when it is set.
const SHARED_DATABASE = Boolean(process.env.TEST_DATABASE_URL);

/**
 * The proofs of lane `lane`, each drawing its ports from its own half of the proofs' range
 * (tests/reliability/lib.js, 3500-3599): a proof checks a port free, then gives it to a server that
 * takes a second to listen, and in that second a proof of the other lane must not find it free too.
 * A range set in REL_PORTS is used as it is.
 */
function inLane(lane, proofs) {
  const ports = process.env.REL_PORTS ? {} : { REL_PORTS: ["3500-3549", "3550-3599"][lane] };
  return proofs.map(([name, cmd, args, env]) => [name, cmd, args, { ...env, ...ports }]);
}

const steps = [
  ["typecheck", "npm", ["run", "-s", "typecheck"]],
  ["lint", "npm", ["run", "-s", "lint"]],
  ["format", "npm", ["run", "-s", "format:check"]],
  ["unit + integration", "npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${VITEST_JSON}`]],
  ["build", "npm", ["run", "-s", "build"]],
  // One migrated and seeded PGlite folder, made by the release step of the build just made, that the
  // fuzzer, the proofs and the end-to-end server copy instead of each running initdb and every
  // migration on a first boot (TEST_PGLITE_TEMPLATE, tests/reliability/lib.js). The first-run proof
  // still starts on an empty folder.
  ["database template", "node", ["scripts/db-migrate.js"], { DATA_DIR: TEMPLATE, DATABASE_URL: "", MIGRATION_DATABASE_URL: "" }],
  // One "test" per route: a bounded number of invalid requests each against the built server, from a
  // seed printed for replay (tests/fuzz/fuzz.js; `npm run fuzz:full` for the long run).
  ["fuzz", "node", ["tests/fuzz/fuzz.js"]],
  // The proofs in two lanes side by side: they spend much of their time waiting on servers that
  // start, stop and are killed, so one after the other they keep about one core of the two busy.
  // Each proof takes its own ports and folders; with a shared database, observability follows
  // durability and cluster in their lane.
  {
    lanes: [
      inLane(0, [
        ["durability", "node", ["tests/reliability/durability.js"]],
        ["cluster", "node", ["tests/reliability/cluster.js"]],
        ...(SHARED_DATABASE ? [OBSERVABILITY] : []),
      ]),
      inLane(1, [
        ["https", "node", ["tests/reliability/https.js"]],
        ["faults", "node", ["tests/reliability/faults.js"]],
        ["first run", "node", ["tests/reliability/first-run.js"]],
        ...(SHARED_DATABASE ? [] : [OBSERVABILITY]),
      ]),
    ],
  },
  ["end-to-end", "npx", ["playwright", "test", "--reporter=list,json"], { PLAYWRIGHT_JSON_OUTPUT_NAME: PLAYWRIGHT_JSON }],
];

function counts() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  if (existsSync(VITEST_JSON)) {
    const v = JSON.parse(readFileSync(VITEST_JSON, "utf8"));
    passed += v.numPassedTests ?? 0;
    failed += v.numFailedTests ?? 0;
    skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  }
  for (const file of [FUZZ_JSON, DURABILITY_JSON, CLUSTER_JSON, HTTPS_JSON, FAULTS_JSON, FIRST_RUN_JSON, OBSERVABILITY_JSON]) {
    if (!existsSync(file)) continue;
    const r = JSON.parse(readFileSync(file, "utf8"));
    passed += r.passed ?? 0;
    failed += r.failed ?? 0;
    skipped += r.skipped ?? 0;
  }
  if (existsSync(PLAYWRIGHT_JSON)) {
    const p = JSON.parse(readFileSync(PLAYWRIGHT_JSON, "utf8")).stats ?? {};
    passed += (p.expected ?? 0) + (p.flaky ?? 0);
    failed += p.unexpected ?? 0;
    skipped += p.skipped ?? 0;
  }
  return { passed, failed, skipped };
}

/**
 * Runs one step, its output streaming through, or (with `log`) collected there for printing later.
 * Resolves to its exit code.
 */
function run([name, cmd, args, extraEnv], log) {
  const say = (line) => (log ? log.push(Buffer.from(`${line}\n`)) : console.log(line));
  say(`\n=== ${name} ===`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: log ? ["ignore", "pipe", "pipe"] : "inherit", env: { ...process.env, ...extraEnv } });
    if (log) {
      child.stdout.on("data", (chunk) => log.push(chunk));
      child.stderr.on("data", (chunk) => log.push(chunk));
    }
    child.on("error", (error) => {
      say(String(error));
      resolve(1);
    });
    child.on("close", (code) => {
      say(`=== ${name}: ${code === 0 ? "ok" : "FAILED"} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      resolve(code ?? 1);
    });
  });
}

/**
 * Lanes side by side, each one step after another and stopping at its first failure; each lane's
 * output is printed in one piece when it ends. Resolves to the first failing exit code, or 0.
 */
async function runLanes(lanes) {
  const codes = await Promise.all(
    lanes.map(async (lane) => {
      const log = [];
      let code = 0;
      for (const step of lane) {
        code = await run(step, log);
        if (code !== 0) break;
      }
      process.stdout.write(Buffer.concat(log));
      return code;
    }),
  );
  return codes.find((code) => code !== 0) ?? 0;
}

let exitCode = 0;
for (const step of steps) {
  exitCode = step.lanes ? await runLanes(step.lanes) : await run(step);
  if (exitCode !== 0) break;
  // The steps after it copy the template; none before it may (it does not exist yet).
  if (step[0] === "database template") process.env.TEST_PGLITE_TEMPLATE = TEMPLATE;
}
rmSync(path.dirname(TEMPLATE), { recursive: true, force: true });
const { passed, failed, skipped } = counts();
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (exitCode === 0 && passed === 0) {
  console.error("No test ran.");
  exitCode = 1;
}
process.exit(exitCode);
