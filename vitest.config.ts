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
          // On PGlite each file opens a database folder of its own, so files run side by side, one
          // per core (70 s instead of 110 s on 2 cores). On PostgreSQL every file empties and
          // migrates the one TEST_DATABASE_URL database (tests/integration/support/db.ts), so files
          // run one at a time there.
          fileParallelism: !process.env.TEST_DATABASE_URL,
          maxWorkers: process.env.TEST_DATABASE_URL ? 1 : 2,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
