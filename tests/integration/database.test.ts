import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, queryRows } from "~/server/db/client.server";
import { DataDirInUseError } from "~/server/db/data-dir-lock.server";
import { engine, freshDatabase, migratedDataFolder } from "./support/db";
import { waitFor } from "./support/wait";

// Each of these makes PGlite clusters or starts processes that open one: seconds of CPU apiece, and
// minutes on a loaded machine. The bound only guards against a hang.
const SLOW_PROCESSES = { timeout: 240_000 };

describe(`database (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => {
    await database.cleanup();
  });

  it("applies the migrations", async () => {
    const rows = await queryRows(
      database.db,
      sql`select count(*)::int as n from information_schema.tables where table_name in ('apps', 'user', 'trial_access')`,
    );
    expect(rows[0]).toEqual({ n: 3 });
  });

  it("runs with fsync and synchronous_commit on", async () => {
    expect(await queryRows(database.db, sql`show fsync`)).toEqual([{ fsync: "on" }]);
    expect(await queryRows(database.db, sql`show synchronous_commit`)).toEqual([{ synchronous_commit: "on" }]);
  });

  // PGlite answers within microtasks; the app's client waits one turn of the event loop before each
  // query, so the queries of requests in flight cannot hold the loop (docs/decisions/0026).
  it.runIf(engine === "pglite")("PGlite: lets the event loop turn before a query runs", async () => {
    let turned = false;
    setImmediate(() => (turned = true));
    const seen: boolean[] = [];
    await Promise.all(Array.from({ length: 5 }, () => database.db.execute(sql`select 1`).then(() => seen.push(turned))));
    expect(seen).toEqual([true, true, true, true, true]);

    let turnedBeforeTransaction = false;
    setImmediate(() => (turnedBeforeTransaction = true));
    const sawTurn = await database.db.transaction(async () => turnedBeforeTransaction);
    expect(sawTurn).toBe(true);
  });
});

describe("an unreachable PostgreSQL", () => {
  it("fails the open with which database and why, never the password", async () => {
    const failure = openDatabase({ databaseUrl: "postgres://app:s3cret-pw@127.0.0.1:1/shop", dataDir: "unused" });
    await expect(failure).rejects.toThrow(
      /^Cannot open the PostgreSQL database 127\.0\.0\.1:1\/shop \(DATABASE_URL\): connect ECONNREFUSED/,
    );
    await expect(failure).rejects.not.toThrow(/s3cret-pw/);
  });
});

describe.runIf(engine === "postgres")("a PostgreSQL connection that drops while idle in the pool", () => {
  it("is logged as one line and replaced, not thrown as an uncaught exception", async () => {
    const database = await freshDatabase();
    const lines: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((line: unknown) => void lines.push(String(line)));
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    try {
      await database.db.execute(sql`select 1`);
      await admin.connect();
      // What a PostgreSQL restart or failover does to every connection.
      const { rowCount: terminated } = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
      );
      expect(terminated).toBeGreaterThan(0);
      const lost = () => lines.filter((line) => line.includes("idle PostgreSQL connection lost"));
      await waitFor(
        async () => lost().length,
        (count) => count === terminated,
      );
      expect(JSON.parse(lines.find((line) => line.includes("idle PostgreSQL connection lost"))!)).toMatchObject({
        level: "warn",
        error: expect.stringContaining("terminating connection due to administrator command (SQLSTATE 57P01)"),
      });
      expect(await queryRows(database.db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
    } finally {
      spy.mockRestore();
      await admin.end();
      await database.cleanup();
    }
  });
});

describe.runIf(engine === "pglite")("PGlite persistence", () => {
  it("keeps committed rows across a close and reopen of the same folder", SLOW_PROCESSES, async () => {
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const dir = mkdtempSync(path.join(tmpdir(), "it-persist-"));
    const first = await openDatabase({ dataDir: path.join(dir, "nested", "data") });
    await first.db.execute(sql`create table kept (v int)`);
    await first.db.execute(sql`insert into kept values (42)`);
    await first.close();
    const second = await openDatabase({ dataDir: path.join(dir, "nested", "data") });
    expect(await queryRows(second.db, sql`select v from kept`)).toEqual([{ v: 42 }]);
    await second.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a second open of a folder that is in use, keeps the first working, and frees it on close", async () => {
    const { rmSync } = await import("node:fs");
    const dir = migratedDataFolder("it-lock-");
    const first = await openDatabase({ dataDir: dir });
    await first.db.execute(sql`create table kept (v int)`);
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DataDirInUseError);
    await first.db.execute(sql`insert into kept values (7)`);
    await first.close();
    const again = await openDatabase({ dataDir: dir });
    expect(await queryRows(again.db, sql`select v from kept`)).toEqual([{ v: 7 }]);
    await again.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
