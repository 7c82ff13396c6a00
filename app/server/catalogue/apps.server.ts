import { and, asc, desc, eq, ilike, ne, or, sql, type SQL } from "drizzle-orm";
import { isSlug } from "~/catalogue/slugs";
import type { CatalogueApp } from "~/catalogue/apps";
import { ALL_INDUSTRIES } from "~/catalogue/industries";
import type { Db } from "../db/client.server";
import { apps } from "../db/schema";
import { currentPrice } from "./current-price.server";

export interface AppFilters {
  /** Case-insensitive substring of name, description or industry (spec section 5). */
  q?: string;
  /** Exact industry; 'All' or absent means every industry. */
  industry?: string;
}

/** The first matches of a search and how many there are in all. */
export interface AppsPage {
  apps: CatalogueApp[];
  total: number;
}

/**
 * The public columns of a catalogue row (everything but the internal is_active flag), with the price
 * in effect now: select them from `apps` left-joined laterally to `price.subquery`.
 */
function publicColumns(db: Db) {
  const price = currentPrice(db);
  return {
    price,
    columns: {
      id: apps.id,
      slug: apps.slug,
      name: apps.name,
      description: apps.description,
      industry: apps.industry,
      ...price.columns,
      rating: apps.rating,
      reviews: apps.reviews,
      isPopular: apps.isPopular,
      features: apps.features,
      deliveryTime: apps.deliveryTime,
    },
  };
}

/** A select of the public columns, current price joined, ready for where/order/limit. */
function selectApps(db: Db) {
  const { price, columns } = publicColumns(db);
  return db
    .select(columns)
    .from(apps)
    .leftJoinLateral(price.subquery, sql`true`);
}

/** Makes LIKE's metacharacters (%, _ and the escape character itself) match literally. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}

/**
 * The WHERE of a search, or null when nothing can match (exported for the query-plan test and the
 * benchmark). Each column gets its own ILIKE so each can use its trigram GIN index
 * (drizzle/0005_catalogue_search.sql; a BitmapOr of the three); a pattern under three characters
 * has no trigram and is a sequential scan.
 */
export function appsWhere(filters: AppFilters): SQL | null {
  const conditions: SQL[] = [eq(apps.isActive, true)];
  const q = filters.q?.trim();
  if (q) {
    // PostgreSQL text cannot hold NUL, so no row contains it (and the driver would refuse it).
    if (q.includes("\0")) return null;
    const pattern = `%${escapeLike(q)}%`;
    conditions.push(or(ilike(apps.name, pattern), ilike(apps.description, pattern), ilike(apps.industry, pattern))!);
  }
  if (filters.industry && filters.industry !== ALL_INDUSTRIES) conditions.push(eq(apps.industry, filters.industry));
  return and(...conditions)!;
}

/**
 * The first `limit` active apps matching the filters, in the operators' order (apps.position), and
 * the number of all matches.
 * Paging and counting happen in SQL: the page is a LIMIT query and the count a count(*) run beside
 * it (on PostgreSQL on a second pool connection). A `count(*) over ()` on the page query would make
 * the page wait for every match: six times slower for the unfiltered page at 100,000 apps
 * (docs/decisions/0014-catalogue-search-at-scale.md).
 */
export async function searchApps(db: Db, filters: AppFilters, limit: number): Promise<AppsPage> {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`searchApps: bad limit ${limit}`);
  const where = appsWhere(filters);
  if (!where) return { apps: [], total: 0 };
  const [rows, [count]] = await Promise.all([
    selectApps(db).where(where).orderBy(asc(apps.position)).limit(limit),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(apps)
      .where(where),
  ]);
  return { apps: rows, total: count?.n ?? 0 };
}

/** One active app by id, or undefined. */
export async function getApp(db: Db, id: number): Promise<CatalogueApp | undefined> {
  if (!Number.isSafeInteger(id)) return undefined;
  const [row] = await selectApps(db)
    .where(and(eq(apps.id, id), eq(apps.isActive, true)))
    .limit(1);
  return row;
}

/** One active app by the slug of its page, or undefined. */
export async function getAppBySlug(db: Db, slug: string): Promise<CatalogueApp | undefined> {
  if (!isSlug(slug)) return undefined;
  const [row] = await selectApps(db)
    .where(and(eq(apps.slug, slug), eq(apps.isActive, true)))
    .limit(1);
  return row;
}

/** A few other active apps of an industry (its page's "related apps"), popular ones first, then in the operators' order. */
export async function relatedApps(db: Db, app: Pick<CatalogueApp, "id" | "industry">, limit: number): Promise<CatalogueApp[]> {
  return selectApps(db)
    .where(and(eq(apps.industry, app.industry), eq(apps.isActive, true), ne(apps.id, app.id)))
    .orderBy(desc(apps.isPopular), asc(apps.position))
    .limit(limit);
}

/** Every active app's slug, in id order (the sitemap). */
export async function appSlugs(db: Db): Promise<string[]> {
  const rows = await db.select({ slug: apps.slug }).from(apps).where(eq(apps.isActive, true)).orderBy(asc(apps.id));
  return rows.map((r) => r.slug);
}
