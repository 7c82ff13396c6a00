import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/server/db/client.server";
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
    const result = await database.db.execute(
      sql`select count(*)::int as n from information_schema.tables where table_name = 'apps'`,
    );
    expect(result.rows[0]).toEqual({ n: 1 });
  });

  it("runs with fsync and synchronous_commit on", async () => {
    const fsync = await database.db.execute(sql`show fsync`);
    const sync = await database.db.execute(sql`show synchronous_commit`);
    expect(fsync.rows[0]).toEqual({ fsync: "on" });
    expect(sync.rows[0]).toEqual({ synchronous_commit: "on" });
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
    const rows = await second.db.execute(sql`select v from kept`);
    expect(rows.rows).toEqual([{ v: 42 }]);
    await second.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
