import { and, desc, eq, lte, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { addonLibrary, addonPrices, appPrices, apps } from "../db/schema";

/**
 * The price an app sells at now: the latest app_prices row already effective, else the app's list
 * price (docs/decisions/0078-catalogue-in-database.md). A lateral join on app_prices_current_idx, one
 * index probe per app read; join `subquery` with `leftJoinLateral(subquery, sql\`true\`)` and select
 * `columns`. The time is the database's `now()`, the clock an operator's change "now" is stamped
 * with, so the next read sees that change whatever the app servers' clocks say.
 */
export function currentPrice(db: Db) {
  const subquery = db
    .select({
      basePrice: appPrices.basePrice,
      expressPrice: appPrices.expressPrice,
      standardPrice: appPrices.standardPrice,
      monthlyFinancing: appPrices.monthlyFinancing,
      effectiveAt: appPrices.effectiveAt,
    })
    .from(appPrices)
    .where(and(eq(appPrices.appId, apps.id), lte(appPrices.effectiveAt, sql`now()`)))
    .orderBy(desc(appPrices.effectiveAt), desc(appPrices.id))
    .limit(1)
    .as("current_price");
  return {
    subquery,
    columns: {
      basePrice: sql<number>`coalesce(${subquery.basePrice}, ${apps.basePrice})`.mapWith(Number),
      expressPrice: sql<number>`coalesce(${subquery.expressPrice}, ${apps.expressPrice})`.mapWith(Number),
      standardPrice: sql<number>`coalesce(${subquery.standardPrice}, ${apps.standardPrice})`.mapWith(Number),
      monthlyFinancing: sql<string>`coalesce(${subquery.monthlyFinancing}, ${apps.monthlyFinancing})`.mapWith(String),
    },
  };
}

/** The monthly price (cents) an add-on sells at now: the latest addon_prices row already effective, else its list price. */
export function currentAddonPrice(db: Db) {
  const subquery = db
    .select({ monthlyPrice: addonPrices.monthlyPrice })
    .from(addonPrices)
    .where(and(eq(addonPrices.addonId, addonLibrary.id), lte(addonPrices.effectiveAt, sql`now()`)))
    .orderBy(desc(addonPrices.effectiveAt), desc(addonPrices.id))
    .limit(1)
    .as("current_addon_price");
  return {
    subquery,
    monthlyPrice: sql<number>`coalesce(${subquery.monthlyPrice}, ${addonLibrary.monthlyPrice})`.mapWith(Number),
  };
}
