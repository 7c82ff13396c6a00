import { and, desc, eq, sql } from "drizzle-orm";
import { type PlanAmounts, type PricedPlan } from "~/catalogue/plan-prices";
import type { Db } from "../db/client.server";
import { planPrices } from "../db/schema";
import { amountsOfRow, currentPlanAmounts } from "../catalogue/current-plan-prices.server";
import { type AuditEntry, listAuditOf } from "./audit.server";

interface PlanPriceChange {
  id: number;
  amounts: PlanAmounts;
  effectiveAt: string;
  createdBy: string | null;
  state: "scheduled" | "current" | "past";
}

export interface PlanPriceDetail {
  /** In effect now. */
  current: PlanAmounts;
  /** Every change, the latest effective first. */
  changes: PlanPriceChange[];
  audit: AuditEntry[];
}

/** A plan's prices as its console page shows them: now, every change (scheduled, current, past) and the audit. */
export async function getPlanPriceDetail(db: Db, plan: PricedPlan): Promise<PlanPriceDetail> {
  const [current, changes, audit] = await Promise.all([
    currentPlanAmounts(db),
    db
      .select({ row: planPrices, effective: sql<boolean>`${planPrices.effectiveAt} <= now()` })
      .from(planPrices)
      .where(and(eq(planPrices.kind, plan.kind), eq(planPrices.itemId, plan.itemId)))
      .orderBy(desc(planPrices.effectiveAt), desc(planPrices.id)),
    listAuditOf(db, "plan", plan.key),
  ]);
  let currentSeen = false;
  return {
    current: current[plan.key] ?? plan.list,
    changes: changes.map(({ row: p, effective }) => {
      const state = !effective ? "scheduled" : currentSeen ? "past" : "current";
      if (effective) currentSeen = true;
      return {
        id: p.id,
        amounts: amountsOfRow(p),
        effectiveAt: p.effectiveAt.toISOString(),
        createdBy: p.createdBy,
        state,
      };
    }),
    audit,
  };
}
