import { desc, lte, sql } from "drizzle-orm";
import { planPriceKey, type PlanAmounts, type PlanCatalogue, type PlanPriceKind, pricePlans } from "~/catalogue/plan-prices";
import { db as appDb, type Db } from "../db/client.server";
import { preparedPerHandle } from "../db/prepared.server";
import { type PlanPriceRow, planPrices } from "../db/schema";

/** A plan_prices row's amounts. */
export const amountsOfRow = (
  row: Pick<PlanPriceRow, "amount" | "originalAmount" | "setupFee" | "monthlyAmount">,
): PlanAmounts => ({
  amount: row.amount,
  originalAmount: row.originalAmount,
  setupFee: row.setupFee,
  monthlyAmount: row.monthlyAmount,
});

const currentAmountsQuery = preparedPerHandle((db) =>
  db
    .selectDistinctOn([planPrices.kind, planPrices.itemId], {
      kind: planPrices.kind,
      itemId: planPrices.itemId,
      amount: planPrices.amount,
      originalAmount: planPrices.originalAmount,
      setupFee: planPrices.setupFee,
      monthlyAmount: planPrices.monthlyAmount,
    })
    .from(planPrices)
    .where(lte(planPrices.effectiveAt, sql`now()`))
    .orderBy(planPrices.kind, planPrices.itemId, desc(planPrices.effectiveAt), desc(planPrices.id)),
);

/**
 * The amounts every priced plan sells at now, by PricedPlan key: for each plan the plan_prices row
 * with the latest effective_at at or before now (ties: the higher id); a plan without one is absent
 * and sells at its list price. One statement over plan_prices_current_idx. The time is the
 * database's `now()`, the clock an operator's change "now" is stamped with, so the next read sees
 * it whatever the app servers' clocks say (as currentPrice does for apps).
 */
export async function currentPlanAmounts(db: Db): Promise<Record<string, PlanAmounts>> {
  const rows = await currentAmountsQuery(db).execute();
  const current: Record<string, PlanAmounts> = {};
  for (const r of rows) current[planPriceKey(r.kind as PlanPriceKind, r.itemId)] = amountsOfRow(r);
  return current;
}

/**
 * The plans as they sell now: every server path that quotes, charges or shows a plan's price reads
 * them here (never the typed list prices), and pages show what their loader read.
 */
export async function currentPlanPrices(db: Db): Promise<PlanCatalogue> {
  return pricePlans(await currentPlanAmounts(db));
}

const pricesOfRequest = new WeakMap<Request, Promise<PlanCatalogue>>();

/**
 * currentPlanPrices, read once per request: a dashboard request runs the layout's loader (the
 * chooser's prices) and the page's (the billing, scaling and overview pages' prices) on the same
 * Request object. A failed read is not remembered; nothing outlives the request.
 */
export function currentPlanPricesOfRequest(request: Request): Promise<PlanCatalogue> {
  const known = pricesOfRequest.get(request);
  if (known) return known;
  const pending = currentPlanPrices(appDb());
  pricesOfRequest.set(request, pending);
  pending.catch(() => {
    if (pricesOfRequest.get(request) === pending) pricesOfRequest.delete(request);
  });
  return pending;
}
