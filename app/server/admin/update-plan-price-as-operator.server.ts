import { sql } from "drizzle-orm";
import { amountsForKind, amountsOfKind, type PlanAmounts, type PricedPlan, sameAmounts } from "~/catalogue/plan-prices";
import type { Db } from "../db/client.server";
import { planPrices } from "../db/schema";
import { catalogueChanged } from "../catalogue/catalogue-version.server";
import { currentPlanAmounts } from "../catalogue/current-plan-prices.server";
import { recordAudit } from "./audit.server";

export type UpdatePlanPriceResult = { price: "none" | "now" | "scheduled" };

/**
 * An operator's change of a plan's amounts, effective now (the database's now, so the next read
 * sees it) or from `effectiveAt`, in one transaction with its audit entry (plan.price: the amounts
 * in effect before, the new ones, their time and row). Saving the amounts in effect now, for now,
 * changes and records nothing. Orders already placed keep their amounts (they copied them), and a
 * subscription keeps the price it was sold at until it changes plan.
 *
 * Edits of one plan take turns (an advisory lock on its key: there is no plan row to lock), so
 * "before" is what the other edit left.
 */
export async function updatePlanPriceAsOperator(
  db: Db,
  operator: { id: string; email: string },
  plan: PricedPlan,
  amounts: PlanAmounts,
  effectiveAt: Date | null,
): Promise<UpdatePlanPriceResult> {
  const result = await db.transaction(async (tx): Promise<UpdatePlanPriceResult> => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`plan-price:${plan.key}`}))`);
    const before = (await currentPlanAmounts(tx))[plan.key] ?? plan.list;
    const stored = amountsForKind(plan.kind, amounts);
    if (!effectiveAt && sameAmounts(before, stored)) return { price: "none" };
    const [inserted] = await tx
      .insert(planPrices)
      .values({
        kind: plan.kind,
        itemId: plan.itemId,
        ...stored,
        effectiveAt: effectiveAt ?? sql`now()`,
        createdBy: operator.id,
      })
      .returning({ id: planPrices.id, effectiveAt: planPrices.effectiveAt });
    await recordAudit(tx, {
      operator,
      action: "plan.price",
      subjectType: "plan",
      subjectId: plan.key,
      before: amountsOfKind(plan.kind, before),
      after: { ...amountsOfKind(plan.kind, amounts), effectiveAt: inserted!.effectiveAt.toISOString(), priceId: inserted!.id },
    });
    return { price: effectiveAt ? "scheduled" : "now" };
  });
  // This instance drops its cached pages at once; the others, and a scheduled price at its time,
  // through the catalogue version they poll.
  if (result.price === "now") catalogueChanged();
  return result;
}
