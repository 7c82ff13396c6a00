import { globSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// One file more than there are cores: integration files spend part of their time waiting on job
// polls, timers and the database, so two workers on two cores left a third of a core idle (three:
// 130 s against 167 s for the PGlite suite). At most 8: each PGlite file holds a few hundred MB.
// Every project gets the same count, as projects that run side by side share Vitest's pool.
const WORKERS = Math.min(8, availableParallelism() + 1);

const UNIT_FILES = "app/**/*.test.{ts,tsx}";
// A file that replaces modules (vi.mock) needs a module graph of its own: in a shared one, an
// earlier file may already have imported the real module. Found by reading the files, so a new
// test that mocks lands in the isolated project without anyone listing it.
const MOCKING_UNIT_FILES = globSync(UNIT_FILES).filter((file) => /\bvi\.(mock|doMock)\(/.test(readFileSync(file, "utf8")));

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [UNIT_FILES],
          exclude: MOCKING_UNIT_FILES,
          environment: "node",
          // A worker keeps its modules from one file to the next: a fresh worker per file spent about
          // two thirds of the unit run importing the same modules again. support/unit-reset.ts puts
          // back what a file may change (environment, stubs, timers) before the next one.
          isolate: false,
          setupFiles: ["tests/support/unit-reset.ts"],
          maxWorkers: WORKERS,
        },
      },
      {
        extends: true,
        test: { name: "unit-mocks", include: MOCKING_UNIT_FILES, environment: "node", maxWorkers: WORKERS },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          // Files run side by side (WORKERS): on PGlite each file opens a database folder of
          // its own, on PostgreSQL each worker a database of its own (support/pg-worker.ts), which
          // every file creates again from the run's template (support/db.ts).
          // A worker keeps its modules from one file to the next (isolate: false): isolated, every file
          // starts a new worker that imports the app, Better Auth, PGlite and the rest again, a large
          // part of the suite's time. What a file changes in module state or process.env is put back
          // before the next one by support/reset-state.ts (after pg-worker.ts, whose setting it keeps).
          isolate: false,
          setupFiles: ["tests/integration/support/pg-worker.ts", "tests/integration/support/reset-state.ts"],
          // One migrated database per run that each file copies (support/database-template.ts).
          globalSetup: ["tests/integration/support/database-template.ts"],
          // Test-strength password hashes (auth/password.server.ts): the suite makes hundreds of
          // accounts; password-storage.test.ts checks full strength with the variable unset.
          env: { PASSWORD_HASH_COST: "test" },
          maxWorkers: WORKERS,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
