import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, queryRows } from "~/server/db/client.server";
import { DataDirInUseError } from "~/server/db/data-dir-lock.server";
import { engine, freshDatabase } from "./support/db";

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

describe.runIf(engine === "pglite")("PGlite persistence", () => {
  it("keeps committed rows across a close and reopen of the same folder", async () => {
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
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const dir = mkdtempSync(path.join(tmpdir(), "it-lock-"));
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
