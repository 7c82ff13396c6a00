import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, queryRows } from "~/server/db/client.server";
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
});
