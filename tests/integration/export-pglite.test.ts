import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUDGETS, PREFERRED_TIMES, PROJECT_TYPES, TIMEFRAMES } from "~/catalogue/callback";
import { createAuth } from "~/server/auth/auth.server";
import { createCheckout } from "~/server/billing/create-checkout.server";
import { fulfilOrder } from "~/server/billing/fulfil-order.server";
import { seedDatabase } from "~/server/boot.server";
import { openDatabase, queryRows, setDatabase, type Database } from "~/server/db/client.server";
import { DataDirInUseError } from "~/server/db/data-dir-lock.server";
import { exportPgliteToPostgres, TargetNotEmptyError } from "~/server/db/export-pglite.server";
import { submitLead } from "~/server/leads/leads.server";
import { signedInCustomerMaker } from "./support/db";

process.env.LOG_LEVEL ??= "error";

/**
 * The PGlite -> PostgreSQL export (npm run db:export-pglite): a folder filled through the app's own
 * functions, exported into TEST_DATABASE_URL's database, compared table by table. Needs PostgreSQL.
 */
const target = process.env.TEST_DATABASE_URL;

async function targetQuery<T>(text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

const TABLES_WITH_ROWS = ["user", "session", "account", "orders", "leads", "apps", "addon_library"];

describe.runIf(target)("exporting a PGlite folder to PostgreSQL", () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "export-test-"));
  const dataDir = path.join(scratch, "data");
  let source: Database;
  let sourceCounts: Record<string, number>;
  let sample: { users: unknown[]; orders: unknown[]; leads: unknown[] };

  beforeAll(async () => {
    await targetQuery(
      "drop schema if exists drizzle cascade; drop schema if exists pgboss cascade; drop schema if exists public cascade; create schema public;",
    );
    source = await openDatabase({ dataDir });
    setDatabase(source);
    await seedDatabase(source.db);
    const auth = createAuth(source.db, "x".repeat(40));
    const newCustomer = signedInCustomerMaker(
      () => auth,
      () => source.db,
      "export",
    );
    for (let i = 0; i < 3; i++) {
      const customer = await newCustomer();
      const checkout = await createCheckout(source.db, customer, { kind: "app", appId: 7 + i, tab: "monthly" });
      await fulfilOrder(source.db, checkout.sessionId);
      await createCheckout(source.db, customer, { kind: "app", appId: 20 + i, tab: "standard" });
      const lead = await submitLead(
        source.db,
        {
          firstName: "Ana",
          lastName: `Lima ${i}`,
          email: `lead-${i}@example.com`,
          phone: "+1 555 0100",
          company: "Bright Smile Dental",
          projectType: PROJECT_TYPES[0],
          budget: BUDGETS[0],
          timeframe: TIMEFRAMES[0],
          message: "Export me.",
          preferredTime: PREFERRED_TIMES[0],
        },
        { ip: `10.9.0.${i + 1}`, mailchimp: null },
      );
      if (lead.status === "invalid") throw new Error(`the test's lead is invalid: ${lead.error}`);
    }
    const tables = await queryRows<{ tablename: string }>(
      source.db,
      sql`select tablename from pg_tables where schemaname = 'public' order by tablename`,
    );
    sourceCounts = {};
    for (const { tablename } of tables) {
      const [row] = await queryRows<{ n: number }>(source.db, sql.raw(`select count(*)::int as n from "${tablename}"`));
      sourceCounts[tablename] = row!.n;
    }
    sample = {
      users: await queryRows(source.db, sql`select id, email, name, email_verified, created_at from "user" order by id`),
      orders: await queryRows(source.db, sql`select * from orders order by id`),
      leads: await queryRows(source.db, sql`select id, email, last_name, created_at from leads order by id`),
    };
  }, 600_000);

  afterAll(async () => {
    setDatabase(undefined);
    await source?.close().catch(() => {});
    rmSync(scratch, { recursive: true, force: true });
  });

  it("refuses a folder a server holds", async () => {
    await expect(exportPgliteToPostgres({ from: dataDir, to: target! })).rejects.toThrow(DataDirInUseError);
  });

  it("copies every table's rows, the same rows, and the next ids follow them", { timeout: 600_000 }, async () => {
    await source.close();
    const exported = await exportPgliteToPostgres({ from: dataDir, to: target! });
    expect(TABLES_WITH_ROWS.filter((table) => !sourceCounts[table])).toEqual([]);
    expect(Object.fromEntries(exported.map((t) => [t.table, t.rows]))).toEqual(sourceCounts);
    const targetCounts: Record<string, number> = {};
    for (const table of Object.keys(sourceCounts)) {
      const [row] = await targetQuery<{ n: number }>(`select count(*)::int as n from "${table}"`);
      targetCounts[table] = row!.n;
    }
    expect(targetCounts).toEqual(sourceCounts);
    // The app's PGlite client answers raw queries' timestamps as PostgreSQL's text, node-postgres as
    // Dates: both become ISO strings before comparing.
    const timestamp = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d(:?\d\d)?|Z)$/;
    const json = (rows: unknown[]) =>
      JSON.parse(JSON.stringify(rows), (_key, value: unknown) =>
        typeof value === "string" && timestamp.test(value)
          ? new Date(value.replace(/([+-]\d\d)$/, "$1:00")).toISOString()
          : value,
      ) as unknown;
    expect(json(await targetQuery(`select id, email, name, email_verified, created_at from "user" order by id`))).toEqual(
      json(sample.users),
    );
    expect(json(await targetQuery(`select * from orders order by id`))).toEqual(json(sample.orders));
    // A serial id the target hands out next follows the copied ones.
    const [payment] = await targetQuery<{ id: number; max: number }>(
      `insert into payment_events (user_id, kind, amount, provider, provider_ref)
         select user_id, 'payment', 1, 'local', 'after-export' from orders limit 1
       returning id, (select max(id) from payment_events) as max`,
    );
    expect(payment!.id).toBeGreaterThan(sourceCounts.payment_events!);
    await targetQuery(`delete from payment_events where provider_ref = 'after-export'`);
    expect(json(await targetQuery(`select id, email, last_name, created_at from leads order by id`))).toEqual(json(sample.leads));
    // The target is migrated like a release step would, with the job queue's schema.
    expect(await targetQuery(`select to_regclass('pgboss.version')::text as t`)).toEqual([{ t: "pgboss.version" }]);
  });

  it(
    "refuses a target that holds data and leaves it as it was; --replace empties and refills it",
    { timeout: 600_000 },
    async () => {
      await targetQuery(`delete from leads where email = 'lead-0@example.com'`);
      const refused = exportPgliteToPostgres({ from: dataDir, to: target! });
      await expect(refused).rejects.toThrow(TargetNotEmptyError);
      await expect(refused).rejects.toThrow(/already holds data \(.*user.*\)/);
      expect(await targetQuery(`select count(*)::int as n from leads`)).toEqual([{ n: sourceCounts.leads! - 1 }]);

      const replaced = await exportPgliteToPostgres({ from: dataDir, to: target!, replace: true });
      expect(replaced.find((t) => t.table === "leads")?.rows).toBe(sourceCounts.leads);
      expect(await targetQuery(`select count(*)::int as n from leads`)).toEqual([{ n: sourceCounts.leads }]);
    },
  );
});
