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
  // Only the add-ons no row holds yet (usually none): an insert of all of them would still fire
  // the insert trigger for each conflicting row on every start.
  const present = new Set((await db.select({ id: addonLibrary.id }).from(addonLibrary)).map((r) => r.id));
  // Inserted in the spec's order (category, then name): the insert trigger gives each new add-on
  // the next position, so a fresh marketplace starts in that order.
  const bySpecOrder = ADDONS.filter((a) => !present.has(a.id)).sort(
    (a, b) => compare(a.category, b.category) || compare(a.name, b.name) || compare(a.id, b.id),
  );
  if (bySpecOrder.length > 0) await db.insert(addonLibrary).values(bySpecOrder).onConflictDoNothing();
  return ADDONS.length;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

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

/**
 * Spec section 7: `addon_library where is_active`, in the operators' order (addon_library.position).
 * The spec ordered by category then name; positions started in that order (drizzle/0027) and the
 * marketplace groups by category in the order their first add-on comes.
 */
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
    .orderBy(asc(addonLibrary.position));
  return rows.map((r) => ({ ...r, features: featureList(r.features) }));
}
