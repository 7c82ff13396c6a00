import { sql } from "drizzle-orm";
import { ADDONS } from "~/catalogue/addons";
import type { Db } from "../db/client.server";
import { addonLibrary } from "../db/schema";

/** Upserts the add-on marketplace from app/catalogue/addons.ts (idempotent, runs at boot). */
export async function seedAddons(db: Db): Promise<number> {
  if (ADDONS.length === 0) return 0;
  await db
    .insert(addonLibrary)
    .values(ADDONS)
    .onConflictDoUpdate({
      target: addonLibrary.id,
      set: {
        name: sql`excluded.name`,
        description: sql`excluded.description`,
        category: sql`excluded.category`,
        monthlyPrice: sql`excluded.monthly_price`,
        features: sql`excluded.features`,
        isActive: sql`excluded.is_active`,
      },
    });
  return ADDONS.length;
}
