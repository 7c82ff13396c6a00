import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase, type Database } from "~/server/db/client.server";

/** Which engine integration tests run on: PGlite by default, PostgreSQL when TEST_DATABASE_URL is set. */
export const engine = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";

/**
 * A migrated, empty database for one test file. On PostgreSQL the public and drizzle schemas are
 * dropped first so every file starts from nothing (on PostgreSQL files run one at a time, see
 * vitest.config.ts).
 */
export async function freshDatabase(): Promise<Database & { cleanup(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(
      "drop schema if exists drizzle cascade; drop schema if exists pgboss cascade; drop schema if exists public cascade; create schema public;",
    );
    await admin.end();
    const database = await openDatabase({ databaseUrl: url, dataDir: "unused" });
    return { ...database, cleanup: () => database.close() };
  }
  const dir = mkdtempSync(path.join(tmpdir(), "it-pglite-"));
  const database = await openDatabase({ dataDir: dir });
  return {
    ...database,
    cleanup: async () => {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
