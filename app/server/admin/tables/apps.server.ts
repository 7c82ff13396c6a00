import { and, count, eq, sql } from "drizzle-orm";
import { TABLE_SPECS } from "~/lib/admin/tables";
import { apps } from "../../db/schema";
import { currentPrice } from "../../catalogue/current-price.server";
import { type AdminTable, containsAny, orderOf, total } from "./query.server";

export interface AppListRow {
  id: number;
  /** Place in /apps' default order (1 is first). */
  position: number;
  slug: string;
  name: string;
  industry: string;
  /** Current prices (the latest effective change, else the list price), whole dollars. */
  basePrice: number;
  expressPrice: number;
  standardPrice: number;
  monthlyFinancing: string;
  isPopular: boolean;
  published: boolean;
  /** A price change scheduled after now, if any (ISO). */
  nextPriceAt: string | null;
  updatedAt: string;
}

export const appsTable: AdminTable<AppListRow> = {
  spec: TABLE_SPECS.apps,
  async query(db, params, page) {
    const where = and(
      containsAny(params.q, [apps.name, apps.slug, apps.industry]),
      params.filters.published ? eq(apps.isActive, params.filters.published === "yes") : undefined,
    );
    const price = currentPrice(db);
    const [rows, n] = await Promise.all([
      db
        .select({
          id: apps.id,
          position: apps.position,
          slug: apps.slug,
          name: apps.name,
          industry: apps.industry,
          ...price.columns,
          isPopular: apps.isPopular,
          published: apps.isActive,
          nextPriceAt: sql<
            string | null
          >`(select min(p.effective_at) from app_prices p where p.app_id = ${apps.id} and p.effective_at > now())`,
          updatedAt: apps.updatedAt,
        })
        .from(apps)
        .leftJoinLateral(price.subquery, sql`true`)
        .where(where)
        .orderBy(
          ...orderOf(
            params,
            {
              id: apps.id,
              position: apps.position,
              name: apps.name,
              industry: apps.industry,
              basePrice: price.columns.basePrice,
              updatedAt: apps.updatedAt,
            },
            apps.id,
          ),
        )
        .limit(page.limit)
        .offset(page.offset),
      db.select({ n: count() }).from(apps).where(where),
    ]);
    return {
      total: total(n),
      rows: rows.map((r) => ({
        ...r,
        nextPriceAt: r.nextPriceAt === null ? null : new Date(r.nextPriceAt).toISOString(),
        updatedAt: r.updatedAt.toISOString(),
      })),
    };
  },
  csv: [
    { header: "id", value: (r) => r.id },
    { header: "slug", value: (r) => r.slug },
    { header: "name", value: (r) => r.name },
    { header: "industry", value: (r) => r.industry },
    { header: "base_price", value: (r) => r.basePrice },
    { header: "express_price", value: (r) => r.expressPrice },
    { header: "standard_price", value: (r) => r.standardPrice },
    { header: "monthly_financing", value: (r) => r.monthlyFinancing },
    { header: "popular", value: (r) => r.isPopular },
    { header: "published", value: (r) => r.published },
    { header: "next_price_at", value: (r) => r.nextPriceAt },
    { header: "updated_at", value: (r) => r.updatedAt },
    { header: "position", value: (r) => r.position },
  ],
};
