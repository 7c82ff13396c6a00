import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, queryRows, type Database } from "~/server/db/client.server";
import { engine } from "./support/db";

// A database made before the signed-in page cache was removed (at migration 0012, with its version
// triggers on every table) is upgraded by the boot migrations like any other: the triggers, their
// functions and the versions table go, the rows stay, and every write works as before.

const DROP_MIGRATION = "0014_drop_page_data_versions";
const scratch = mkdtempSync(path.join(tmpdir(), "it-drop-page-versions-"));

/** The migrations folder as it was before the removal: every migration up to 0012. */
function migrationsUpTo0012(): string {
  const folder = path.join(scratch, "drizzle-0012");
  mkdirSync(path.join(folder, "meta"), { recursive: true });
  const journal = JSON.parse(readFileSync("drizzle/meta/_journal.json", "utf8")) as { entries: { idx: number; tag: string }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= 12);
  expect(journal.entries.at(-1)?.tag).toBe("0012_limit_counters");
  for (const e of journal.entries) cpSync(`drizzle/${e.tag}.sql`, path.join(folder, `${e.tag}.sql`));
  writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify(journal));
  return folder;
}

/** Opens this file's database with `migrationsFolder` (the default: the repository's drizzle/). */
async function open(migrationsFolder?: string): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) return openDatabase({ databaseUrl: url, dataDir: "unused", migrationsFolder });
  return openDatabase({ dataDir: path.join(scratch, "data"), migrationsFolder });
}

async function emptyPostgres() {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(
    "drop schema if exists drizzle cascade; drop schema if exists pgboss cascade; drop schema if exists public cascade; create schema public;",
  );
  await admin.end();
}

/** What is left of the page versions: the table, the triggers calling its functions, the functions. */
async function pageVersionObjects(database: Database) {
  const [row] = await queryRows<{ tables: number; triggers: number; functions: number }>(
    database.db,
    sql`select
      (select count(*)::int from information_schema.tables where table_name = 'page_data_versions') as tables,
      (select count(*)::int from pg_trigger t join pg_proc p on p.oid = t.tgfoid where p.proname like 'bump_page_versions%') as triggers,
      (select count(*)::int from pg_proc where proname like 'bump_page_versions%') as functions`,
  );
  return row;
}

describe(`upgrading a database at migration 0012 (${engine})`, () => {
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  // Two opens, each migrating a PGlite folder: longer than the project's 60 s on a busy machine.
  it(
    "drops the page version triggers, functions and table, keeps the rows, and can run again",
    { timeout: 240_000 },
    async () => {
      if (engine === "postgres") await emptyPostgres();
      const old = await open(migrationsUpTo0012());
      try {
        expect(await pageVersionObjects(old)).toEqual({ tables: 1, triggers: 24, functions: 2 });
        await old.db.execute(
          sql`insert into "user" (id, name, email, email_verified) values ('u-old', 'Old', 'old@example.com', true)`,
        );
        await old.db.execute(sql`insert into app_settings (key, value) values ('upgrade_check', 'before')`);
        // The triggers were live: the user's write and the shared setting both bumped a version.
        const versions = await queryRows<{ owner: string }>(old.db, sql`select owner from page_data_versions order by owner`);
        expect(versions.map((v) => v.owner)).toEqual(["", "u-old"]);
      } finally {
        await old.close();
      }

      const upgraded = await open();
      try {
        expect(await pageVersionObjects(upgraded)).toEqual({ tables: 0, triggers: 0, functions: 0 });
        const applied = await queryRows<{ n: number }>(
          upgraded.db,
          sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
        );
        const journal = JSON.parse(readFileSync("drizzle/meta/_journal.json", "utf8")) as { entries: unknown[] };
        expect(applied[0]?.n).toBe(journal.entries.length);
        // The rows written before are there, and writes to tables that had a trigger work.
        expect(await queryRows(upgraded.db, sql`select email from "user" where id = 'u-old'`)).toEqual([
          { email: "old@example.com" },
        ]);
        await upgraded.db.execute(sql`update "user" set name = 'Renamed' where id = 'u-old'`);
        await upgraded.db.execute(sql`update app_settings set value = 'after' where key = 'upgrade_check'`);
        await upgraded.db.execute(sql`delete from "user" where id = 'u-old'`);
        expect(await queryRows(upgraded.db, sql`select value from app_settings where key = 'upgrade_check'`)).toEqual([
          { value: "after" },
        ]);

        // The migration's statements run again on a database that no longer has any of it.
        const statements = readFileSync(`drizzle/${DROP_MIGRATION}.sql`, "utf8").split("--> statement-breakpoint");
        for (const statement of statements) await upgraded.db.execute(sql.raw(statement));
        expect(await pageVersionObjects(upgraded)).toEqual({ tables: 0, triggers: 0, functions: 0 });
      } finally {
        await upgraded.close();
      }
    },
  );
});
