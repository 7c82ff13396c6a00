import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { appPrices, apps } from "../db/schema";
import { recordAudit } from "./audit.server";

/**
 * Withdraws a scheduled price change of an app before it takes effect, with its audit entry
 * (app.price-cancel, the withdrawn row as `before`). A change already in effect is history and
 * stays: false then, and for an unknown id.
 */
export async function cancelAppPriceAsOperator(
  db: Db,
  operator: { id: string; email: string },
  appId: number,
  priceId: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(appPrices)
      .where(and(eq(appPrices.id, priceId), eq(appPrices.appId, appId), gt(appPrices.effectiveAt, sql`now()`)))
      .returning();
    if (!removed) return false;
    await tx
      .update(apps)
      .set({ updatedAt: sql`now()` })
      .where(eq(apps.id, appId));
    await recordAudit(tx, {
      operator,
      action: "app.price-cancel",
      subjectType: "app",
      subjectId: String(appId),
      before: {
        priceId: removed.id,
        basePrice: removed.basePrice,
        expressPrice: removed.expressPrice,
        standardPrice: removed.standardPrice,
        monthlyFinancing: removed.monthlyFinancing,
        effectiveAt: removed.effectiveAt.toISOString(),
      },
      after: null,
    });
    return true;
  });
}
