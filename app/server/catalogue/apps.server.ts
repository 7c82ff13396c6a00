import { and, asc, eq, ilike, or, type SQL } from "drizzle-orm";
import type { CatalogueApp } from "~/catalogue/apps";
import { ALL_INDUSTRIES } from "~/catalogue/industries";
import type { Db } from "../db/client.server";
import { apps } from "../db/schema";

export interface AppFilters {
  /** Case-insensitive substring of name, description or industry (spec section 5). */
  q?: string;
  /** Exact industry; 'All' or absent means every industry. */
  industry?: string;
}

/** The public columns of a catalogue row: everything but the internal is_active flag. */
const columns = {
  id: apps.id,
  name: apps.name,
  description: apps.description,
  industry: apps.industry,
  basePrice: apps.basePrice,
  expressPrice: apps.expressPrice,
  standardPrice: apps.standardPrice,
  monthlyFinancing: apps.monthlyFinancing,
  rating: apps.rating,
  reviews: apps.reviews,
  isPopular: apps.isPopular,
  features: apps.features,
  deliveryTime: apps.deliveryTime,
};

/** Makes LIKE's metacharacters (%, _ and the escape character itself) match literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}

/** Active apps matching the filters, ordered by id. */
export async function listApps(db: Db, filters: AppFilters = {}): Promise<CatalogueApp[]> {
  const conditions: SQL[] = [eq(apps.isActive, true)];
  const q = filters.q?.trim();
  if (q) {
    const pattern = `%${escapeLike(q)}%`;
    conditions.push(or(ilike(apps.name, pattern), ilike(apps.description, pattern), ilike(apps.industry, pattern))!);
  }
  if (filters.industry && filters.industry !== ALL_INDUSTRIES) conditions.push(eq(apps.industry, filters.industry));
  return db
    .select(columns)
    .from(apps)
    .where(and(...conditions))
    .orderBy(asc(apps.id));
}

/** One active app by id, or undefined. */
export async function getApp(db: Db, id: number): Promise<CatalogueApp | undefined> {
  if (!Number.isSafeInteger(id)) return undefined;
  const [row] = await db
    .select(columns)
    .from(apps)
    .where(and(eq(apps.id, id), eq(apps.isActive, true)))
    .limit(1);
  return row;
}
