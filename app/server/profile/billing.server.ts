import { and, desc, eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { trialAccess, userSubscriptions } from "~/server/db/schema";
import { grantsAccessNow } from "~/server/billing/subscriptions.server";

const PLAN_TYPE_NAMES: Record<string, string> = { basic: "Basic", pro: "Pro", enterprise: "Enterprise" };

export interface SubscriptionSummary {
  active: boolean;
  /** Spec 4 'Subscription': plan_name, else the plan_type mapping, else 'Free Trial'. */
  planName: string;
  planType: string | null;
  /** Cents. */
  monthlyPrice: number | null;
  currentPeriodEnd: string | null;
  reachLimit: number | null;
  trialEndsAt: string | null;
  /** The active row ends with its period instead of renewing. */
  cancelAtPeriodEnd: boolean;
}

export function planNameOf(row: { planName: string | null; planType: string | null } | undefined): string {
  if (row?.planName) return row.planName;
  return (row?.planType && PLAN_TYPE_NAMES[row.planType]) || "Free Trial";
}

/** The user's subscription as the billing and scaling pages show it (the active row wins). */
export async function getSubscriptionSummary(db: Db, userId: string): Promise<SubscriptionSummary> {
  const [[active], [trial]] = await Promise.all([
    db
      .select()
      .from(userSubscriptions)
      .where(and(eq(userSubscriptions.userId, userId), grantsAccessNow))
      .orderBy(desc(userSubscriptions.updatedAt))
      .limit(1),
    db.select().from(trialAccess).where(eq(trialAccess.userId, userId)).limit(1),
  ]);
  return {
    active: Boolean(active),
    planName: planNameOf(active),
    planType: active?.planType ?? null,
    monthlyPrice: active?.monthlyPrice ?? null,
    currentPeriodEnd: active?.currentPeriodEnd?.toISOString() ?? null,
    reachLimit: active?.reachLimit ?? null,
    trialEndsAt: trial?.trialStarted && trial.trialEndsAt ? trial.trialEndsAt.toISOString() : null,
    cancelAtPeriodEnd: Boolean(active?.cancelAtPeriodEnd),
  };
}
