import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inject } from "vitest";
import type { Auth } from "~/server/auth/auth.server";
import { openDatabase, type Database, type Db } from "~/server/db/client.server";
import { eq } from "drizzle-orm";
import { addonLibrary, orders, user } from "~/server/db/schema";
import { recreateDatabase, templateBase } from "./database-template";

/** Which engine integration tests run on: PGlite by default, PostgreSQL when TEST_DATABASE_URL is set. */
export const engine = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";

/**
 * A migrated, empty database for one test file, copied from the run's template
 * (support/database-template.ts). On PostgreSQL the worker's database (support/pg-worker.ts) is
 * dropped and created again from the template database, so every file starts from nothing; the
 * migrations still run on open and find nothing to do.
 */
export async function freshDatabase(): Promise<Database & { cleanup(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  const template = inject("databaseTemplate");
  if (url) {
    await recreateDatabase(process.env.TEST_DATABASE_URL_BASE ?? url, templateBase(url), template);
    const database = await openDatabase({ databaseUrl: url, dataDir: "unused" });
    return { ...database, cleanup: () => database.close() };
  }
  const dir = migratedDataFolder("it-pglite-");
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
 * A new PGlite data folder holding a copy of the run's migrated template (PGlite runs only), for tests
 * that open a folder themselves: copying costs a fraction of an initdb plus every migration.
 */
export function migratedDataFolder(prefix = "it-folder-"): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  cpSync(inject("databaseTemplate"), dir, { recursive: true });
  return dir;
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
