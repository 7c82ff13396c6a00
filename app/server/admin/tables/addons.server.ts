import { and, count, eq, sql } from "drizzle-orm";
import { TABLE_SPECS } from "~/lib/admin/tables";
import { addonLibrary } from "../../db/schema";
import { currentAddonPrice } from "../../catalogue/current-price.server";
import { type AdminTable, containsAny, orderOf, total } from "./query.server";

export interface AddonListRow {
  id: string;
  /** Place in the dashboard marketplace's order (1 is first). */
  position: number;
  name: string;
  category: string;
  /** Cents a month, in effect now. */
  monthlyPrice: number;
  published: boolean;
  /** A price change scheduled after now, if any (ISO). */
  nextPriceAt: string | null;
  updatedAt: string;
}

export const addonsTable: AdminTable<AddonListRow> = {
  spec: TABLE_SPECS.addons,
  async query(db, params, page) {
    const where = and(
      containsAny(params.q, [addonLibrary.name, addonLibrary.id, addonLibrary.category]),
      params.filters.published ? eq(addonLibrary.isActive, params.filters.published === "yes") : undefined,
    );
    const price = currentAddonPrice(db);
    const [rows, n] = await Promise.all([
      db
        .select({
          id: addonLibrary.id,
          position: addonLibrary.position,
          name: addonLibrary.name,
          category: addonLibrary.category,
          monthlyPrice: price.monthlyPrice,
          published: addonLibrary.isActive,
          nextPriceAt: sql<
            string | null
          >`(select min(p.effective_at) from addon_prices p where p.addon_id = ${addonLibrary.id} and p.effective_at > now())`,
          updatedAt: addonLibrary.updatedAt,
        })
        .from(addonLibrary)
        .leftJoinLateral(price.subquery, sql`true`)
        .where(where)
        .orderBy(
          ...orderOf(
            params,
            {
              position: addonLibrary.position,
              name: addonLibrary.name,
              category: addonLibrary.category,
              monthlyPrice: price.monthlyPrice,
            },
            addonLibrary.id,
          ),
        )
        .limit(page.limit)
        .offset(page.offset),
      db.select({ n: count() }).from(addonLibrary).where(where),
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
    { header: "name", value: (r) => r.name },
    { header: "category", value: (r) => r.category },
    { header: "monthly_price_cents", value: (r) => r.monthlyPrice },
    { header: "published", value: (r) => r.published },
    { header: "next_price_at", value: (r) => r.nextPriceAt },
    { header: "updated_at", value: (r) => r.updatedAt },
    { header: "position", value: (r) => r.position },
  ],
};
