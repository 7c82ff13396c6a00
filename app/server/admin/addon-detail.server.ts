import { count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { addonLibrary, addonPrices } from "../db/schema";
import { currentAddonPrice } from "../catalogue/current-price.server";
import { type AuditEntry, listAuditOf } from "./audit.server";

interface AddonPriceChange {
  id: number;
  /** Cents a month. */
  monthlyPrice: number;
  effectiveAt: string;
  createdBy: string | null;
  state: "scheduled" | "current" | "past";
}

export interface AddonDetail {
  addon: {
    id: string;
    name: string;
    description: string;
    category: string;
    features: string[];
    isActive: boolean;
    /** The list price (cents a month), in effect until the first change. */
    listPrice: number;
    updatedAt: string;
  };
  /** Cents a month, in effect now. */
  current: number;
  /** Every price change, the latest effective first. */
  changes: AddonPriceChange[];
  /** Where it stands in the public order: `position` of `of` (every row, on sale or not). */
  order: { position: number; of: number };
  audit: AuditEntry[];
}

/** An add-on as the console's edit page shows it, on sale or not; null when no add-on has the id. */
export async function getAddonDetail(db: Db, id: string): Promise<AddonDetail | null> {
  if (id.length === 0 || id.length > 100) return null;
  const price = currentAddonPrice(db);
  const [row] = await db
    .select({ addon: addonLibrary, current: price.monthlyPrice })
    .from(addonLibrary)
    .leftJoinLateral(price.subquery, sql`true`)
    .where(eq(addonLibrary.id, id))
    .limit(1);
  if (!row) return null;
  const [changes, audit, [total]] = await Promise.all([
    db
      .select({ row: addonPrices, effective: sql<boolean>`${addonPrices.effectiveAt} <= now()` })
      .from(addonPrices)
      .where(eq(addonPrices.addonId, id))
      .orderBy(desc(addonPrices.effectiveAt), desc(addonPrices.id)),
    listAuditOf(db, "addon", id),
    db.select({ n: count() }).from(addonLibrary),
  ]);
  let currentSeen = false;
  const { addon } = row;
  return {
    addon: {
      id: addon.id,
      name: addon.name,
      description: addon.description,
      category: addon.category,
      features: addon.features,
      isActive: addon.isActive,
      listPrice: addon.monthlyPrice,
      updatedAt: addon.updatedAt.toISOString(),
    },
    current: row.current,
    changes: changes.map(({ row: p, effective }) => {
      const state = !effective ? "scheduled" : currentSeen ? "past" : "current";
      if (effective) currentSeen = true;
      return { id: p.id, monthlyPrice: p.monthlyPrice, effectiveAt: p.effectiveAt.toISOString(), createdBy: p.createdBy, state };
    }),
    order: { position: addon.position, of: total?.n ?? 0 },
    audit,
  };
}
