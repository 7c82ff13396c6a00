import { allApps } from "~/catalogue/apps";
import type { Db } from "../db/client.server";
import { apps } from "../db/schema";

/**
 * Seeds the catalogue from the typed data (app/catalogue/apps.ts) on first start. After that the
 * database is the truth: operators edit apps in the console, so a later start only inserts apps
 * whose id (or slug) no row holds yet and never rewrites a row (docs/decisions/0078-catalogue-in-database.md).
 */
export async function seedCatalogue(db: Db): Promise<{ apps: number; inserted: number }> {
  const rows = allApps();
  // Every start runs this: reading the ids first makes the usual case (nothing new) one small
  // query, not an insert of every app whose conflicts still fire the insert triggers.
  const present = new Set((await db.select({ id: apps.id }).from(apps)).map((r) => r.id));
  const missing = rows.filter((r) => !present.has(r.id));
  if (missing.length === 0) return { apps: rows.length, inserted: 0 };
  let inserted = 0;
  await db.transaction(async (tx) => {
    for (let i = 0; i < missing.length; i += 100) {
      // Still on conflict do nothing: a row made meanwhile, or another app holding the slug.
      const added = await tx
        .insert(apps)
        .values(missing.slice(i, i + 100))
        .onConflictDoNothing()
        .returning({ id: apps.id });
      inserted += added.length;
    }
  });
  return { apps: rows.length, inserted };
}
