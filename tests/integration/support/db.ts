import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { Auth } from "~/server/auth/auth.server";
import { openDatabase, type Database, type Db } from "~/server/db/client.server";
import { eq } from "drizzle-orm";
import { addonLibrary, orders, user } from "~/server/db/schema";

/** Which engine integration tests run on: PGlite by default, PostgreSQL when TEST_DATABASE_URL is set. */
export const engine = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";

/**
 * A migrated, empty database for one test file. On PostgreSQL the public and drizzle schemas are
 * dropped first so every file starts from nothing (on PostgreSQL files run one at a time, see
 * vitest.config.ts).
 */
export async function freshDatabase(): Promise<Database & { cleanup(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(
      "drop schema if exists drizzle cascade; drop schema if exists pgboss cascade; drop schema if exists public cascade; create schema public;",
    );
    await admin.end();
    const database = await openDatabase({ databaseUrl: url, dataDir: "unused" });
    return { ...database, cleanup: () => database.close() };
  }
  const dir = mkdtempSync(path.join(tmpdir(), "it-pglite-"));
  const database = await openDatabase({ dataDir: dir });
  return {
    ...database,
    cleanup: async () => {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A maker of verified users inserted straight into the user table (no sign-up): ids
 * `<prefix>-user-<n>`, emails `<prefix>-<n>@example.com`. `db` is read at each call, since the
 * file's database opens in beforeAll.
 */
export function userMaker(db: () => Db, prefix: string) {
  let n = 0;
  return async () => {
    n += 1;
    const id = `${prefix}-user-${n}`;
    const email = `${prefix}-${n}@example.com`;
    await db()
      .insert(user)
      .values({ id, name: `User ${n}`, email, emailVerified: true });
    return { id, email };
  };
}

/**
 * A maker of customers who signed up, were verified and signed in through Better Auth: emails
 * `<prefix>-<n>@example.com`, with the session cookie a browser would send. `auth` and `db` are read
 * at each call, since the file's database and auth open in beforeAll.
 */
export function signedInCustomerMaker(auth: () => Auth, db: () => Db, prefix: string) {
  let n = 0;
  return async () => {
    n += 1;
    const email = `${prefix}-${n}@example.com`;
    const password = "correct-horse-battery";
    await auth().api.signUpEmail({ body: { email, password, name: `Customer ${n}` } });
    await db().update(user).set({ emailVerified: true }).where(eq(user.email, email));
    const res = await auth().api.signInEmail({ body: { email, password }, asResponse: true });
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const [row] = await db().select().from(user).where(eq(user.email, email));
    return { id: row!.id, email, name: row!.name, cookie };
  };
}

/** The order with this id (tests ask only for orders they made). */
export async function orderById(db: Db, id: string) {
  return (await db.select().from(orders).where(eq(orders.id, id)))[0]!;
}

/** Add-ons of a test's own in the library (active unless the add-on says otherwise); kept when present. */
export async function insertTestAddons(
  db: Db,
  addons: readonly { id: string; name: string; category: string; monthlyPrice: number; isActive?: boolean }[],
  features: string[] = ["a", "b"],
) {
  await db
    .insert(addonLibrary)
    .values(addons.map((a) => ({ description: "test", features, isActive: true, ...a })))
    .onConflictDoNothing();
}
