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
  let inserted = 0;
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += 100) {
      const added = await tx
        .insert(apps)
        .values(rows.slice(i, i + 100))
        .onConflictDoNothing()
        .returning({ id: apps.id });
      inserted += added.length;
    }
  });
  return { apps: rows.length, inserted };
}
