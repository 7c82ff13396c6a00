import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, type Database } from "~/server/db/client.server";
import { PAGE_VERSION_RULES, signedInPageVersion } from "~/server/db/page-versions.server";
import { activityEvents, leads, orders, session, supportTickets, apps } from "~/server/db/schema";
import { freshDatabase, userMaker } from "./support/db";

// The signed-in page cache (ADR 0017, session 16) is only as right as these triggers: a table a
// page reads that bumps no version would leave a stored page showing old data.

let database: Database & { cleanup(): Promise<void> };
const db = () => database.db;
const makeUser = userMaker(db, "pv");

beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await database?.cleanup();
});

const triggerLine = (fn: string, level: string, args: readonly string[]) => `${fn} ${level} (${args.join(", ")})`;

const SIX_DAYS = 6 * 24 * 3600;

async function versionOf(owner: string): Promise<number> {
  const [row] = await queryRows<{ version: string }>(db(), sql`select version from page_data_versions where owner = ${owner}`);
  return Number(row?.version ?? 0);
}

async function signIn(userId: string, token: string, expiresInDays = 7) {
  await db()
    .insert(session)
    .values({
      id: `s-${token}`,
      token,
      userId,
      expiresAt: new Date(Date.now() + expiresInDays * 24 * 3600 * 1000),
      createdAt: new Date(),
      updatedAt: new Date(),
    });
}

describe("page version triggers", () => {
  it("every table has a rule, and the triggers in the database are exactly the rules", async () => {
    const tables = await queryRows<{ name: string }>(
      db(),
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    expect(tables.map((t) => t.name).sort()).toEqual(Object.keys(PAGE_VERSION_RULES).sort());

    const triggers = await queryRows<{ table: string; fn: string; args: string; level: string }>(
      db(),
      sql`select c.relname as "table", p.proname as fn,
                 encode(t.tgargs, 'escape') as args,
                 case when t.tgtype & 1 = 1 then 'row' else 'statement' end as level
          from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
          join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and not t.tgisinternal`,
    );
    // What each rule calls for, against what the database holds: one line per distinct trigger kind.
    // (tgargs: each argument followed by a NUL byte, shown as \000.)
    const expected = Object.fromEntries(
      Object.entries(PAGE_VERSION_RULES).map(([table, rule]) => [
        table,
        "exempt" in rule
          ? []
          : "everyone" in rule
            ? [triggerLine("bump_page_versions_of_everyone", "statement", [])]
            : [triggerLine("bump_page_versions_of_row", "row", rule.owners)],
      ]),
    );
    const actual = Object.fromEntries(
      Object.keys(PAGE_VERSION_RULES).map((table) => [
        table,
        [
          ...new Set(
            triggers
              .filter((t) => t.table === table)
              .map((t) => triggerLine(t.fn, t.level, t.args.split("\\000").filter(Boolean))),
          ),
        ],
      ]),
    );
    expect(actual).toEqual(expected);
  });

  it("every column that holds a user's id (by foreign key, directly or through another user-id column) is an owner", async () => {
    const fks = await queryRows<{ table: string; column: string; refTable: string; refColumn: string }>(
      db(),
      sql`select kcu.table_name as "table", kcu.column_name as "column",
                 ccu.table_name as "refTable", ccu.column_name as "refColumn"
          from information_schema.table_constraints tc
          join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
          join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
          where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = 'public'`,
    );
    const userColumns = new Set(["user.id"]);
    for (let grew = true; grew;) {
      grew = false;
      for (const fk of fks) {
        const name = `${fk.table}.${fk.column}`;
        if (!userColumns.has(name) && userColumns.has(`${fk.refTable}.${fk.refColumn}`)) {
          userColumns.add(name);
          grew = true;
        }
      }
    }
    expect(userColumns.size).toBeGreaterThan(15);
    const notOwners = [...userColumns].filter((name) => {
      const [table = "", column = ""] = name.split(".");
      const rule = PAGE_VERSION_RULES[table];
      return !(rule && "owners" in rule && rule.owners.includes(column));
    });
    expect(notOwners).toEqual([]);
  });

  it("a write bumps its owner's version when it commits, and only theirs", async () => {
    const a = await makeUser();
    const b = await makeUser();
    const [beforeA, beforeB] = [await versionOf(a.id), await versionOf(b.id)];
    await db().insert(supportTickets).values({ userId: a.id, subject: "Help", category: "general", message: "Please" });
    expect(await versionOf(a.id)).toBeGreaterThan(beforeA);
    expect(await versionOf(b.id)).toBe(beforeB);

    // Inside a transaction the bump waits for the commit; a rolled-back write bumps nothing.
    const mid = await versionOf(a.id);
    await db()
      .transaction(async (tx) => {
        await tx.insert(orders).values({
          id: "pv-order-1",
          userId: a.id,
          kind: "addons",
          itemId: "x",
          itemName: "X",
          amount: 100,
          provider: "local",
          providerSessionId: "pv-session-1",
        });
        throw new Error("roll back");
      })
      .catch(() => {});
    expect(await versionOf(a.id)).toBe(mid);

    // A visit does not (ADR 0027: only /dashboard/analytics shows visits, and it is never stored)...
    await db().insert(activityEvents).values({ userId: a.id, kind: "dashboard_visit" });
    expect(await versionOf(a.id)).toBe(mid);
    // ...other activity does.
    await db().insert(activityEvents).values({ userId: a.id, kind: "ticket_opened" });
    expect(await versionOf(a.id)).toBeGreaterThan(mid);
  });

  it("a delete bumps the owner of the deleted row; a write to shared data bumps everyone's", async () => {
    const a = await makeUser();
    await db()
      .insert(leads)
      .values({ id: "pv-lead-1", firstName: "A", email: "a@example.com", phone: "+1 555 0100", source: "test", userId: a.id });
    const before = await versionOf(a.id);
    await db()
      .delete(leads)
      .where(sql`id = 'pv-lead-1'`);
    expect(await versionOf(a.id)).toBeGreaterThan(before);

    const everyone = await versionOf("");
    await db()
      .update(apps)
      .set({ reviews: sql`reviews` })
      .where(sql`false`);
    expect(await versionOf("")).toBeGreaterThan(everyone);
  });
});

describe("signedInPageVersion", () => {
  it("answers a live session with its user's and everyone's versions, and nothing for ended or refreshable ones", async () => {
    const a = await makeUser();
    await signIn(a.id, "pv-live");
    await signIn(a.id, "pv-old", 5); // Better Auth would extend it on this request (older than a day).
    await signIn(a.id, "pv-expired", -1);
    const live = await signedInPageVersion(db(), "pv-live", SIX_DAYS);
    expect(live).toEqual({ userId: a.id, version: `${await versionOf(a.id)}.${await versionOf("")}` });
    expect(await signedInPageVersion(db(), "pv-old", SIX_DAYS)).toBeNull();
    expect(await signedInPageVersion(db(), "pv-expired", SIX_DAYS)).toBeNull();
    expect(await signedInPageVersion(db(), "no-such-token", SIX_DAYS)).toBeNull();
    // On PGlite the token is written into an EXECUTE: nothing outside Better Auth's alphabet gets there.
    expect(await signedInPageVersion(db(), "x' or ''='", SIX_DAYS)).toBeNull();
    expect(await signedInPageVersion(db(), "pv-live' --", SIX_DAYS)).toBeNull();

    // Signing out deletes the row: the same token answers nothing at once.
    await db()
      .delete(session)
      .where(sql`token = 'pv-live'`);
    expect(await signedInPageVersion(db(), "pv-live", SIX_DAYS)).toBeNull();
  });

  it("the version changes when the user's data does", async () => {
    const a = await makeUser();
    await signIn(a.id, "pv-change");
    const first = await signedInPageVersion(db(), "pv-change", SIX_DAYS);
    await db().insert(supportTickets).values({ userId: a.id, subject: "Again", category: "general", message: "Hello" });
    const second = await signedInPageVersion(db(), "pv-change", SIX_DAYS);
    expect(second?.version).not.toBe(first?.version);
  });
});
