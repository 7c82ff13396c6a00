import { and, desc, eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { billingCustomers, orders, trialAccess, userSubscriptions } from "~/server/db/schema";
import { grantsAccessNow } from "~/server/billing/subscriptions.server";
import { paidSubscriptionOrderOf } from "~/server/trial/trial.server";

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
  /**
   * Paid monthly subscriptions other than a plan or tier (add-ons, monthly apps and packages, the
   * distributor program): they are their order rows, not user_subscriptions rows.
   */
  otherSubscriptions: PaidSubscription[];
  /** Any of them grants access now (the dashboard gate's rule, hasActiveSubscription). */
  otherSubscriptionActive: boolean;
  /** The user has a Stripe customer: /api/billing/portal can open the portal for it. */
  hasBillingAccount: boolean;
}

export interface PaidSubscription {
  id: string;
  itemName: string;
  kind: string;
  /** Cents per month. */
  monthlyPrice: number;
  /** The provider's latest state; null (never reported) counts as 'active'. */
  status: string;
  /** Access now: the same rule as the dashboard gate. */
  active: boolean;
}

export function planNameOf(row: { planName: string | null; planType: string | null } | undefined): string {
  if (row?.planName) return row.planName;
  return (row?.planType && PLAN_TYPE_NAMES[row.planType]) || "Free Trial";
}

/** The user's subscription as the billing and scaling pages show it (the active row wins). */
export async function getSubscriptionSummary(db: Db, userId: string): Promise<SubscriptionSummary> {
  const [[active], [trial], subscriptionOrders, [customer]] = await Promise.all([
    db
      .select()
      .from(userSubscriptions)
      .where(and(eq(userSubscriptions.userId, userId), grantsAccessNow))
      .orderBy(desc(userSubscriptions.updatedAt))
      .limit(1),
    db.select().from(trialAccess).where(eq(trialAccess.userId, userId)).limit(1),
    // The orders hasActiveSubscription counts (app/server/trial), listed whatever their provider
    // state, so a past-due one shows here with the way to fix it (Manage Billing).
    db
      .select({
        id: orders.id,
        itemName: orders.itemName,
        kind: orders.kind,
        amount: orders.amount,
        subscriptionStatus: orders.subscriptionStatus,
      })
      .from(orders)
      .where(paidSubscriptionOrderOf(userId))
      .orderBy(desc(orders.paidAt), desc(orders.createdAt)),
    db
      .select({ one: billingCustomers.customerId })
      .from(billingCustomers)
      .where(and(eq(billingCustomers.userId, userId), eq(billingCustomers.provider, "stripe")))
      .limit(1),
  ]);
  const otherSubscriptions: PaidSubscription[] = subscriptionOrders.map((o) => {
    const status = o.subscriptionStatus ?? "active";
    return { id: o.id, itemName: o.itemName, kind: o.kind, monthlyPrice: o.amount, status, active: status === "active" };
  });
  return {
    active: Boolean(active),
    planName: planNameOf(active),
    planType: active?.planType ?? null,
    monthlyPrice: active?.monthlyPrice ?? null,
    currentPeriodEnd: active?.currentPeriodEnd?.toISOString() ?? null,
    reachLimit: active?.reachLimit ?? null,
    trialEndsAt: trial?.trialStarted && trial.trialEndsAt ? trial.trialEndsAt.toISOString() : null,
    cancelAtPeriodEnd: Boolean(active?.cancelAtPeriodEnd),
    otherSubscriptions,
    otherSubscriptionActive: otherSubscriptions.some((s) => s.active),
    hasBillingAccount: Boolean(customer),
  };
}
