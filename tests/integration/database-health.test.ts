import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { setDatabase, type Database, type Db } from "~/server/db/client.server";
import { checkWrites, createDatabaseHealthCheck } from "~/server/db/database-health.server";
import * as schema from "~/server/db/schema";
import { CLIENT_IP_HEADER } from "~/server/http/client-ip.server";
import { handleCallbackRequest } from "~/server/leads/http.server";
import { setMailchimpConfig } from "~/server/leads/mailchimp.server";
import { engine, freshDatabase } from "./support/db";

const LEAD_EMAIL = "refused.writes@example.com";

const postLead = () =>
  handleCallbackRequest(
    new Request("http://localhost/api/callback", {
      method: "POST",
      headers: { "content-type": "application/json", [CLIENT_IP_HEADER]: "192.0.2.77" },
      body: JSON.stringify({ firstName: "Refused", email: LEAD_EMAIL, phone: "+15550007777" }),
    }),
  );

/** Runs `fn` and returns what it wrote to stderr (the server's error and warn lines). */
async function stderrOf<T>(fn: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const spy = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    const result = await fn();
    return { result, lines: spy.mock.calls.map(([line]) => String(line)) };
  } finally {
    spy.mockRestore();
  }
}

describe(`database health (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let clock = 0;
  const now = () => clock;
  beforeAll(async () => {
    database = await freshDatabase();
    setDatabase(database);
    setMailchimpConfig(null);
  });
  afterEach(() => {
    setDatabase(database);
  });
  afterAll(async () => {
    setMailchimpConfig(undefined);
    setDatabase(undefined);
    await database.cleanup();
  });

  it("is ok while the database reads and writes, and writes at most once per TTL", async () => {
    let writes = 0;
    const check = createDatabaseHealthCheck({ ttlMs: 5_000, now, writes: (db) => (writes++, checkWrites(db)) });
    expect(await check(database.db)).toEqual({ state: "ok" });
    expect(await Promise.all([check(database.db), check(database.db)])).toEqual([{ state: "ok" }, { state: "ok" }]);
    expect(writes).toBe(1);
    clock += 5_000;
    expect(await check(database.db)).toEqual({ state: "ok" });
    expect(writes).toBe(2);
    // The check leaves nothing behind.
    const left = await database.db.execute(sql`select count(*)::int as n from pg_class where relname = 'health_write_check'`);
    expect((left as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  });

  it("a read-only database: /healthz is degraded, a lead is a 503, and the log says why without the lead's data", async () => {
    const readOnly = await readOnlyDatabase(database);
    try {
      setDatabase(readOnly.database);
      const check = createDatabaseHealthCheck({ now });
      const { result: health, lines: healthLines } = await stderrOf(() => check(readOnly.database.db));
      expect(health.state).toBe("read-only");
      const said = healthLines.map((l) => JSON.parse(l) as { msg: string; error?: string });
      expect(said.find((l) => l.msg === "database read-only")?.error).toMatch(/read-only transaction.*25006/);

      const { result: answer, lines } = await stderrOf(postLead);
      expect(answer).toEqual({ status: 503, body: { error: "Please try again later" } });
      expect(lines).toHaveLength(1);
      const line = JSON.parse(lines[0]!) as { level: string; msg: string; error: string };
      expect(line).toMatchObject({ level: "error", msg: "callback request failed" });
      expect(line.error).toMatch(
        /^Failed query \(insert into "?limit_counters"?\); cause: cannot execute INSERT in a read-only transaction \(SQLSTATE 25006\)$/,
      );
      for (const text of [LEAD_EMAIL, "+15550007777", "192.0.2.77", "Refused"]) expect(lines[0]).not.toContain(text);
    } finally {
      await readOnly.restore();
    }
    expect(await createDatabaseHealthCheck({ now })(database.db)).toEqual({ state: "ok" });
  });

  it("a full disk (SQLSTATE 53100 on every new table and lead): the same, and healthy again once it clears", async () => {
    // As PostgreSQL answers when a file cannot grow: the temporary table the write check makes and
    // the lead form's first insert both fail.
    for (const statement of [
      `create function simulated_disk_full() returns event_trigger language plpgsql as
        $$ begin raise exception 'could not extend file "base/5/t3_16400": No space left on device' using errcode = '53100'; end $$`,
      `create event trigger simulated_disk_full on ddl_command_start when tag in ('CREATE TABLE')
        execute function simulated_disk_full()`,
      `create function simulated_disk_full_row() returns trigger language plpgsql as
        $$ begin raise exception 'could not extend file "base/5/16385": No space left on device' using errcode = '53100'; end $$`,
      `create trigger simulated_disk_full before insert on limit_counters for each row execute function simulated_disk_full_row()`,
    ]) {
      await database.db.execute(sql.raw(statement));
    }
    const check = createDatabaseHealthCheck({ now });
    try {
      const { result: health, lines: healthLines } = await stderrOf(() => check(database.db));
      expect(health.state).toBe("read-only");
      expect(healthLines.join("\n")).toContain("No space left on device (SQLSTATE 53100)");

      const { result: answer, lines } = await stderrOf(postLead);
      expect(answer.status).toBe(503);
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({
        msg: "callback request failed",
        error: expect.stringContaining('could not extend file "base/5/16385": No space left on device (SQLSTATE 53100)'),
      });
      expect(lines[0]).not.toContain(LEAD_EMAIL);
    } finally {
      for (const statement of [
        "drop event trigger simulated_disk_full",
        "drop function simulated_disk_full()",
        "drop trigger simulated_disk_full on limit_counters",
        "drop function simulated_disk_full_row()",
      ]) {
        await database.db.execute(sql.raw(statement));
      }
    }
    clock += 5_000;
    const { result: healthy, lines } = await stderrOf(() => check(database.db));
    expect(healthy).toEqual({ state: "ok" });
    expect(lines).toEqual([]);
    expect((await postLead()).status).toBe(200);
  });

  it("a database that does not answer is unavailable", async () => {
    const broken = { execute: () => Promise.reject(new Error("Connection terminated unexpectedly")) } as unknown as Db;
    const { result } = await stderrOf(() => createDatabaseHealthCheck({ now })(broken));
    expect(result.state).toBe("unavailable");
  });
});

/**
 * The same database refusing writes, as a read-only replica or `default_transaction_read_only`
 * makes it: on PGlite the one connection is switched, on PostgreSQL a pool of its own is opened.
 */
async function readOnlyDatabase(database: Database): Promise<{ database: Database; restore(): Promise<void> }> {
  if (database.kind === "pglite") {
    await database.db.execute(sql`set default_transaction_read_only = on`);
    return { database, restore: async () => void (await database.db.execute(sql`set default_transaction_read_only = off`)) };
  }
  const pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, options: "-c default_transaction_read_only=on" });
  const db = drizzle(pool, { schema }) as unknown as Db;
  return { database: { db, kind: "postgres", close: () => pool.end() }, restore: () => pool.end() };
}
