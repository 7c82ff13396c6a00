import { asc, eq, sql } from "drizzle-orm";
import { ADDONS, type AddonListing } from "~/catalogue/addons";
import type { Db } from "../db/client.server";
import { addonLibrary } from "../db/schema";

export type { AddonListing };

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

/** Spec section 7: features may be stored as an array or as a JSON string of strings. */
function featureList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((f): f is string => typeof f === "string");
  if (typeof value === "string") {
    try {
      return featureList(JSON.parse(value));
    } catch {
      return [];
    }
  }
  return [];
}

/** Spec section 7: `addon_library where is_active, ordered by category ascending` (then by name). */
export async function listActiveAddons(db: Db): Promise<AddonListing[]> {
  const rows = await db
    .select({
      id: addonLibrary.id,
      name: addonLibrary.name,
      description: addonLibrary.description,
      category: addonLibrary.category,
      monthlyPrice: addonLibrary.monthlyPrice,
      features: addonLibrary.features,
    })
    .from(addonLibrary)
    .where(eq(addonLibrary.isActive, true))
    .orderBy(asc(addonLibrary.category), asc(addonLibrary.name));
  return rows.map((r) => ({ ...r, features: featureList(r.features) }));
}
