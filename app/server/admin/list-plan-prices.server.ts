import { asc, gt, sql } from "drizzle-orm";
import { type PlanAmounts, type PlanPriceKind, planPriceKey, PRICED_PLANS } from "~/catalogue/plan-prices";
import type { Db } from "../db/client.server";
import { planPrices } from "../db/schema";
import { amountsOfRow, currentPlanAmounts } from "../catalogue/current-plan-prices.server";

export interface PlanPriceListRow {
  key: string;
  kind: PlanPriceKind;
  name: string;
  /** In effect now. */
  current: PlanAmounts;
  /** The typed amounts, in effect until the first change. */
  list: PlanAmounts;
  /** Changes still to come, the soonest first. */
  scheduled: { effectiveAt: string; amounts: PlanAmounts }[];
}

/** Every priced plan with its amounts now and its scheduled changes: the console's /admin/plans. */
export async function listPlanPrices(db: Db): Promise<PlanPriceListRow[]> {
  const [current, upcoming] = await Promise.all([
    currentPlanAmounts(db),
    db
      .select()
      .from(planPrices)
      .where(gt(planPrices.effectiveAt, sql`now()`))
      .orderBy(asc(planPrices.effectiveAt), asc(planPrices.id)),
  ]);
  return PRICED_PLANS.map((plan) => ({
    key: plan.key,
    kind: plan.kind,
    name: plan.name,
    current: current[plan.key] ?? plan.list,
    list: plan.list,
    scheduled: upcoming
      .filter((p) => planPriceKey(p.kind as PlanPriceKind, p.itemId) === plan.key)
      .map((p) => ({
        effectiveAt: p.effectiveAt.toISOString(),
        amounts: amountsOfRow(p),
      })),
  }));
}
