import { and, eq } from "drizzle-orm";
import type { TrialPlan } from "~/catalogue/plans";
import type { Db } from "../db/client.server";
import { userSubscriptions } from "../db/schema";
import { grantsAccessNow } from "./subscriptions.server";

/**
 * The trial chooser's member plans (Growth, Pro) as the account's plan: bought on
 * /packages?tier=…, held as its user_subscriptions row (plan_type 'member'), one plan at a time
 * like the billing plans and scaling tiers (docs/decisions/0044-member-plans-rush-and-setup-lines.md).
 */
const MEMBER_PLAN_TYPE = "member";

/**
 * The order's and the subscription's name. The billing page sells another 'Pro' ($499/month), so
 * the chooser's is the 'Pro Member Plan', and every page shows its price beside it.
 */
export function memberPlanItemName(plan: Pick<TrialPlan, "name">): string {
  return `${plan.name} Member Plan`;
}

/** Whether the account's plan that grants access now is this member plan. */
export async function holdsMemberPlan(db: Db, userId: string, tier: string): Promise<boolean> {
  const [row] = await db
    .select({ id: userSubscriptions.id })
    .from(userSubscriptions)
    .where(
      and(
        eq(userSubscriptions.userId, userId),
        eq(userSubscriptions.planType, MEMBER_PLAN_TYPE),
        grantsAccessNow,
        // The row's item, not its first order's: a plan change moves the subscription to another tier.
        eq(userSubscriptions.itemKind, "member"),
        eq(userSubscriptions.itemId, tier),
      ),
    )
    .limit(1);
  return row !== undefined;
}
