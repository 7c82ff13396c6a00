import { eq, getTableColumns, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/server/db/client.server";
import { jsonRows, rowFromJson, tableRowFromJson } from "~/server/db/json-rows.server";
import { orders, user } from "~/server/db/schema";
import { engine, freshDatabase } from "./support/db";

/**
 * Rows read as JSON (several tables' rows in one statement) must come out exactly as a plain select
 * gives them: the same keys, Dates for timestamps (microseconds cut to milliseconds, as the drivers
 * do), jsonb as objects, nulls as null.
 */
describe(`rows read as JSON (${engine})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;

  beforeAll(async () => {
    database = await freshDatabase();
    const db = database.db;
    await db.insert(user).values({ id: "u-json", name: "Json Rows", email: "json-rows@example.com" });
    await db.insert(orders).values([
      {
        id: "o-paid",
        userId: "u-json",
        kind: "app",
        itemId: "crm-helper",
        itemName: "CRM Helper",
        amount: 4900,
        provider: "local",
        providerSessionId: "s-paid",
        details: { addons: [{ id: "seo", monthlyPrice: 1500 }], note: 'quote\'s "text"', nested: { deep: [1, null, true] } },
        status: "paid",
        isSubscription: true,
        trialDays: 7,
      },
      {
        id: "o-pending",
        userId: "u-json",
        kind: "plan",
        itemId: "starter",
        itemName: "Starter",
        amount: 0,
        provider: "stripe",
        providerSessionId: "s-pending",
      },
    ]);
    // Microseconds the drivers cut off, and a time at a zone's offset.
    await db.execute(
      sql`update orders set paid_at = '2026-03-29 01:30:00.123456+02', created_at = '2026-12-07 18:20:07.999999+00' where id = 'o-paid'`,
    );
  });
  afterAll(async () => database?.cleanup());

  it("decodes whole rows as a plain select of the table gives them", async () => {
    const db = database.db;
    const plain = await db.select().from(orders).where(eq(orders.userId, "u-json")).orderBy(orders.id);
    const { rows } = (
      await queryRows<{ rows: unknown[] }>(
        db,
        sql`select ${jsonRows(db.select().from(orders).where(eq(orders.userId, "u-json")).orderBy(orders.id))} as rows`,
      )
    )[0]!;
    const decoded = rows.map((r) => tableRowFromJson(orders, r));
    expect(decoded).toEqual(plain);
    expect(decoded[0]!.paidAt).toEqual(new Date("2026-03-28T23:30:00.123Z"));
    expect(decoded[1]!.paidAt).toBeNull();
  });

  it("decodes a selection of columns under their own keys, and no rows as an empty list", async () => {
    const db = database.db;
    const fields = { orderId: orders.id, paid: orders.paidAt, details: orders.details };
    const { some, none } = (
      await queryRows<{ some: unknown[]; none: unknown[] }>(
        db,
        sql`select ${jsonRows(db.select(fields).from(orders).where(eq(orders.id, "o-paid")))} as some,
          ${jsonRows(db.select(fields).from(orders).where(eq(orders.id, "no-such-order")))} as none`,
      )
    )[0]!;
    expect(none).toEqual([]);
    expect(some.map((r) => rowFromJson(fields, r))).toEqual(await db.select(fields).from(orders).where(eq(orders.id, "o-paid")));
  });

  it("refuses a row that lacks a column rather than reading it as missing data", () => {
    expect(() => rowFromJson(getTableColumns(orders), { id: "o-paid" })).toThrow('the JSON row has no "user_id" column');
    expect(() => rowFromJson(getTableColumns(orders), null)).toThrow("a JSON row must be an object");
  });
});
