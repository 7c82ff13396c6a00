import { count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { appPrices, apps } from "../db/schema";
import { currentPrice } from "../catalogue/current-price.server";
import { type AuditEntry, listAuditOf } from "./audit.server";

interface AppPrices {
  basePrice: number;
  expressPrice: number;
  standardPrice: number;
  monthlyFinancing: string;
}

interface AppPriceChange extends AppPrices {
  id: number;
  effectiveAt: string;
  createdBy: string | null;
  createdAt: string;
  /** 'scheduled': after now; 'current': the one in effect; 'past': replaced by a later one. */
  state: "scheduled" | "current" | "past";
}

export interface AppDetail {
  app: {
    id: number;
    slug: string;
    name: string;
    description: string;
    industry: string;
    features: string[];
    deliveryTime: string;
    isPopular: boolean;
    isActive: boolean;
    rating: number;
    reviews: number;
    updatedAt: string;
  };
  /** The prices in effect now. */
  current: AppPrices;
  /** The prices the app started with (in effect until the first change). */
  listPrice: AppPrices;
  /** Every price change, the latest effective first. */
  changes: AppPriceChange[];
  /** Where it stands in the public order: `position` of `of` (every row, on sale or not). */
  order: { position: number; of: number };
  audit: AuditEntry[];
}

/** An app as the console's edit page shows it, published or not; null when no app has the id. */
export async function getAppDetail(db: Db, id: number): Promise<AppDetail | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return null;
  const price = currentPrice(db);
  const [row] = await db
    .select({ app: apps, current: price.columns })
    .from(apps)
    .leftJoinLateral(price.subquery, sql`true`)
    .where(eq(apps.id, id))
    .limit(1);
  if (!row) return null;
  const [changes, audit, [total]] = await Promise.all([
    db
      .select({ row: appPrices, effective: sql<boolean>`${appPrices.effectiveAt} <= now()` })
      .from(appPrices)
      .where(eq(appPrices.appId, id))
      .orderBy(desc(appPrices.effectiveAt), desc(appPrices.id)),
    listAuditOf(db, "app", String(id)),
    db.select({ n: count() }).from(apps),
  ]);
  let currentSeen = false;
  const { app } = row;
  return {
    app: {
      id: app.id,
      slug: app.slug,
      name: app.name,
      description: app.description,
      industry: app.industry,
      features: app.features,
      deliveryTime: app.deliveryTime,
      isPopular: app.isPopular,
      isActive: app.isActive,
      rating: app.rating,
      reviews: app.reviews,
      updatedAt: app.updatedAt.toISOString(),
    },
    current: row.current,
    listPrice: {
      basePrice: app.basePrice,
      expressPrice: app.expressPrice,
      standardPrice: app.standardPrice,
      monthlyFinancing: app.monthlyFinancing,
    },
    changes: changes.map(({ row: p, effective }) => {
      const state = !effective ? "scheduled" : currentSeen ? "past" : "current";
      if (effective) currentSeen = true;
      return {
        id: p.id,
        basePrice: p.basePrice,
        expressPrice: p.expressPrice,
        standardPrice: p.standardPrice,
        monthlyFinancing: p.monthlyFinancing,
        effectiveAt: p.effectiveAt.toISOString(),
        createdBy: p.createdBy,
        createdAt: p.createdAt.toISOString(),
        state,
      };
    }),
    order: { position: app.position, of: total?.n ?? 0 },
    audit,
  };
}
