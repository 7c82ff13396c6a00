import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, PendingMigrationsError } from "~/server/db/client.server";
import { readMigrations } from "~/server/db/migrations.server";
import { parseEnv } from "~/server/env.server";
import { engine } from "./support/db";

const migrationCount = readMigrations(path.resolve("drizzle")).length;
const journal = JSON.parse(readFileSync(path.resolve("drizzle/meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
const lastTag = journal.entries.at(-1)!.tag;

describe("release-step settings", () => {
  it("PG_POOL_SIZE defaults to 10 and takes a positive whole number up to 500", () => {
    expect(parseEnv({}).PG_POOL_SIZE).toBe(10);
    expect(parseEnv({ PG_POOL_SIZE: "25" }).PG_POOL_SIZE).toBe(25);
    for (const bad of ["0", "-1", "2.5", "501", "ten"]) expect(() => parseEnv({ PG_POOL_SIZE: bad })).toThrow(/PG_POOL_SIZE/);
  });

  it("MIGRATE_ON_BOOT defaults to on; MIGRATION_DATABASE_URL must be a postgres URL", () => {
    expect(parseEnv({}).MIGRATE_ON_BOOT).toBe("1");
    expect(parseEnv({ MIGRATE_ON_BOOT: "0" }).MIGRATE_ON_BOOT).toBe("0");
    expect(() => parseEnv({ MIGRATE_ON_BOOT: "yes" })).toThrow(/MIGRATE_ON_BOOT/);
    expect(() => parseEnv({ MIGRATION_DATABASE_URL: "mysql://x" })).toThrow(/MIGRATION_DATABASE_URL/);
  });
});

describe.runIf(engine === "pglite")("migrations at boot on PGlite", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  // Each PGlite open of a new folder is slow on a busy machine: two opens here.
  it("with migrate off, refuses a folder that lacks a migration of this release, naming it", { timeout: 240_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "release-pglite-"));
    dirs.push(dir);
    const migrated = await openDatabase({ dataDir: dir });
    expect(migrated.migrationsApplied).toBe(migrationCount);
    // As if this release brought its newest migration and the release step had not run.
    await migrated.db.execute(
      sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
    );
    await migrated.close();
    const refused = openDatabase({ dataDir: dir, migrate: false });
    await expect(refused).rejects.toThrow(PendingMigrationsError);
    await expect(refused).rejects.toThrow(
      new RegExp(`lacks 1 migration\\(s\\) of this release \\(${lastTag}\\).*npm run db:migrate`),
    );
  });
});

describe.runIf(engine === "postgres")("migrations on PostgreSQL", () => {
  const url = process.env.TEST_DATABASE_URL!;

  async function emptyDatabase() {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(
      "drop schema if exists drizzle cascade; drop schema if exists pgboss cascade; drop schema if exists public cascade; create schema public;",
    );
    await admin.end();
  }

  // pg_locks is the whole server's: other test files' databases (pg-boss, the grant CLI) take advisory
  // locks of their own, so only this database's count.
  async function advisoryLocksHeld() {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query(
      "select count(*)::int as n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())",
    );
    await client.end();
    return (rows[0] as { n: number }).n;
  }

  it("refuses to boot on a database that lacks migrations when migrate is off, naming the release step", async () => {
    await emptyDatabase();
    const refused = openDatabase({ databaseUrl: url, dataDir: "unused", migrate: false });
    await expect(refused).rejects.toThrow(PendingMigrationsError);
    await expect(refused).rejects.toThrow(/lacks \d+ migration\(s\) of this release \(0000_/);
  });

  it("three instances opening an empty database at once migrate it once, install the job queue, and hold no lock after", async () => {
    await emptyDatabase();
    const opened = await Promise.all([1, 2, 3].map(() => openDatabase({ databaseUrl: url, dataDir: "unused", poolSize: 2 })));
    try {
      expect(opened.map((d) => d.migrationsApplied).sort()).toEqual([0, 0, migrationCount]);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const applied = await client.query("select count(*)::int as n from drizzle.__drizzle_migrations");
      expect(applied.rows[0]).toEqual({ n: migrationCount });
      const version = await client.query("select version from pgboss.version");
      expect(version.rows).toHaveLength(1);
      await client.end();
      // The lock was a transaction's: nothing is left held on any connection.
      expect(await advisoryLocksHeld()).toBe(0);
    } finally {
      await Promise.all(opened.map((d) => d.close()));
    }
    const upToDate = await openDatabase({ databaseUrl: url, dataDir: "unused", migrate: false });
    expect(upToDate.migrationsApplied).toBe(0);
    await upToDate.close();
  });

  it("a failing migration leaves the database as it was (one transaction)", async () => {
    await emptyDatabase();
    const folder = mkdtempSync(path.join(tmpdir(), "broken-migrations-"));
    try {
      cpSync(path.resolve("drizzle"), folder, { recursive: true });
      const journal = JSON.parse(readFileSync(path.join(folder, "meta/_journal.json"), "utf8")) as {
        entries: { idx: number; when: number; tag: string; version: string; breakpoints: boolean }[];
      };
      const last = journal.entries.at(-1)!;
      journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag: "9999_broken" });
      writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify(journal));
      writeFileSync(path.join(folder, "9999_broken.sql"), "select * from a_table_that_is_not_there;");
      await expect(openDatabase({ databaseUrl: url, dataDir: "unused", migrationsFolder: folder })).rejects.toThrow(
        /a_table_that_is_not_there/,
      );
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const left = await client.query(
        "select to_regclass('drizzle.__drizzle_migrations') as migrations, to_regclass('public.user') as users, to_regclass('pgboss.version') as jobs",
      );
      await client.end();
      expect(left.rows[0]).toEqual({ migrations: null, users: null, jobs: null });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
