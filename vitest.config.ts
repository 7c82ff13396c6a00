import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["app/**/*.test.{ts,tsx}"], environment: "node" },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          // Files run side by side, one per core: on PGlite each file opens a database folder of
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
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
