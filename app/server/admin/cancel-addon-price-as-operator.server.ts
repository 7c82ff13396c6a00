import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { addonLibrary, addonPrices } from "../db/schema";
import { recordAudit } from "./audit.server";

/**
 * Withdraws a scheduled price change of an add-on before it takes effect, audited
 * (addon.price-cancel); false for one already in effect or an unknown id.
 */
export async function cancelAddonPriceAsOperator(
  db: Db,
  operator: { id: string; email: string },
  addonId: string,
  priceId: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(addonPrices)
      .where(and(eq(addonPrices.id, priceId), eq(addonPrices.addonId, addonId), gt(addonPrices.effectiveAt, sql`now()`)))
      .returning();
    if (!removed) return false;
    await tx
      .update(addonLibrary)
      .set({ updatedAt: sql`now()` })
      .where(eq(addonLibrary.id, addonId));
    await recordAudit(tx, {
      operator,
      action: "addon.price-cancel",
      subjectType: "addon",
      subjectId: addonId,
      before: { priceId: removed.id, monthlyPrice: removed.monthlyPrice, effectiveAt: removed.effectiveAt.toISOString() },
      after: null,
    });
    return true;
  });
}
