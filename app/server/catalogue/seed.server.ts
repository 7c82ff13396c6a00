import { sql } from "drizzle-orm";
import { allApps } from "~/catalogue/apps";
import type { Db } from "../db/client.server";
import { apps } from "../db/schema";

/**
 * Upserts the deterministic catalogue. Running it on every start is safe: rows are keyed by the
 * app id and rewritten with the same values, so prices never drift between restarts.
 */
export async function seedCatalogue(db: Db): Promise<{ apps: number }> {
  const rows = allApps();
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += 100) {
      await tx
        .insert(apps)
        .values(rows.slice(i, i + 100))
        .onConflictDoUpdate({
          target: apps.id,
          set: {
            slug: sql`excluded.slug`,
            name: sql`excluded.name`,
            description: sql`excluded.description`,
            industry: sql`excluded.industry`,
            basePrice: sql`excluded.base_price`,
            expressPrice: sql`excluded.express_price`,
            standardPrice: sql`excluded.standard_price`,
            monthlyFinancing: sql`excluded.monthly_financing`,
            rating: sql`excluded.rating`,
            reviews: sql`excluded.reviews`,
            isPopular: sql`excluded.is_popular`,
            features: sql`excluded.features`,
            deliveryTime: sql`excluded.delivery_time`,
          },
        });
    }
  });
  return { apps: rows.length };
}
