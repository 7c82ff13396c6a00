import { asc, eq, sql } from "drizzle-orm";
import { ADDONS, type AddonListing } from "~/catalogue/addons";
import type { Db } from "../db/client.server";
import { addonLibrary } from "../db/schema";
import { currentAddonPrice } from "./current-price.server";

export type { AddonListing };

/**
 * Seeds the add-on marketplace from app/catalogue/addons.ts on first start; a later start only
 * inserts add-ons no row holds yet and never rewrites one an operator edited (runs at boot).
 */
export async function seedAddons(db: Db): Promise<number> {
  if (ADDONS.length === 0) return 0;
  await db.insert(addonLibrary).values(ADDONS).onConflictDoNothing();
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
  const price = currentAddonPrice(db);
  const rows = await db
    .select({
      id: addonLibrary.id,
      name: addonLibrary.name,
      description: addonLibrary.description,
      category: addonLibrary.category,
      monthlyPrice: price.monthlyPrice,
      features: addonLibrary.features,
    })
    .from(addonLibrary)
    .leftJoinLateral(price.subquery, sql`true`)
    .where(eq(addonLibrary.isActive, true))
    .orderBy(asc(addonLibrary.category), asc(addonLibrary.name));
  return rows.map((r) => ({ ...r, features: featureList(r.features) }));
}
