import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3107);
const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // V8's interpreter and baseline compiler only: a test's page lives a second or two, too short for
  // the optimizing compilers (Maglev, TurboFan) to pay back the CPU they spend on background threads,
  // which the two workers' browsers and the server share with nothing spare
  // (docs/decisions/0087-e2e-no-optimizing-jit.md).
  "--js-flags=--max-opt=1",
];

// Debian's chromium-headless-shell (the same Chromium build in the headless mode Playwright itself
// prefers for headless runs) spends about half the browser CPU of the full browser per page, and
// the end-to-end run is bound by browser CPU; the full browser when it is not installed
// (docs/decisions/0086-e2e-headless-shell.md). CHROMIUM_PATH chooses another binary.
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const executablePath = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

const CATALOGUE_WRITERS = /admin-catalogue.*\.spec\.ts$/;

/** End-to-end tests drive the production build in the system Chromium (never a downloaded browser). */
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  // Two workers on two cores: tests that sign up bind their own 127.x.y.z source address, so per-IP
  // limits do not couple them, and the run stays inside CI's 30-minute budget.
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://localhost:${PORT}`,
    // The ticker and pulse animations otherwise repaint at 60 frames a second in every open page,
    // in software (no GPU here), taking CPU from the server and the other worker.
    reducedMotion: "reduce",
    // Recording a trace costs about as much CPU as the test it records (screencast frames and DOM
    // snapshots, in software rendering), for every test, to keep the few that fail. A failure
    // keeps its screenshot and page snapshot (error-context.md); the retry records a trace where
    // there is one (CI), and `--trace=on` records one locally.
    trace: "on-first-retry",
    // One browser context per worker, reset between tests (cookies, cache, storage, extra pages,
    // routes, viewport): a new context costs a renderer process and a cold first page, about half
    // of a test's browser CPU. Every test signs in its own account, so cookies are its state; a
    // test.use() that changes other context options gets a fresh context
    // (docs/decisions/0082-e2e-reused-browser-context.md).
    reuseContext: true,
    screenshot: "only-on-failure",
    launchOptions: { executablePath, args: chromiumArgs },
  },
  projects: [
    { name: "chromium", use: { ...devices["Desktop Chrome"] }, testIgnore: CATALOGUE_WRITERS },
    // Specs that change what every visitor sees (an app's price, the catalogue's order, a new
    // add-on) run after all the others, so no other spec reads the catalogue while it is changed.
    // Alone: `npx playwright test --no-deps tests/e2e/admin-catalogue.spec.ts` (without --no-deps
    // Playwright first runs every spec of the project they depend on).
    {
      name: "catalogue-writers",
      use: { ...devices["Desktop Chrome"] },
      testMatch: CATALOGUE_WRITERS,
      dependencies: ["chromium"],
    },
  ],
  webServer: {
    command: "node tests/e2e/support/serve.js",
    url: `http://localhost:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { PORT: String(PORT) },
    stdout: "ignore",
    stderr: "pipe",
  },
});
