import { and, eq, gt, sql } from "drizzle-orm";
import { amountsOfKind, type PricedPlan } from "~/catalogue/plan-prices";
import type { Db } from "../db/client.server";
import { planPrices } from "../db/schema";
import { recordAudit } from "./audit.server";

/**
 * Withdraws a scheduled price change of a plan before it takes effect, audited (plan.price-cancel,
 * with the withdrawn row); false for one already in effect, another plan's or an unknown id. A
 * change in effect is history and stays. Nothing public changes: the withdrawn amounts were never
 * shown.
 */
export async function cancelPlanPriceAsOperator(
  db: Db,
  operator: { id: string; email: string },
  plan: PricedPlan,
  priceId: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(planPrices)
      .where(
        and(
          eq(planPrices.id, priceId),
          eq(planPrices.kind, plan.kind),
          eq(planPrices.itemId, plan.itemId),
          gt(planPrices.effectiveAt, sql`now()`),
        ),
      )
      .returning();
    if (!removed) return false;
    await recordAudit(tx, {
      operator,
      action: "plan.price-cancel",
      subjectType: "plan",
      subjectId: plan.key,
      before: { priceId: removed.id, ...amountsOfKind(plan.kind, removed), effectiveAt: removed.effectiveAt.toISOString() },
      after: null,
    });
    return true;
  });
}
