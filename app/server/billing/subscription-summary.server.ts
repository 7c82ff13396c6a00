import { and, eq, sql } from "drizzle-orm";
import { isRunning, planNameOf } from "~/catalogue/entitlements";
import type { Db } from "../db/client.server";
import { preparedPerHandle } from "../db/prepared.server";
import { billingCustomers } from "../db/schema";
import { type Entitlements, getEntitlements } from "./entitlements.server";

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
  /** Any of them opens the dashboard (paid for, not in a free trial: the entitlements' rule). */
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
  /** Running (in its trial, active or ending), not lapsed: the item works. */
  active: boolean;
}

export { planNameOf } from "~/catalogue/entitlements";

const stripeCustomerQuery = preparedPerHandle((db) =>
  db
    .select({ one: billingCustomers.customerId })
    .from(billingCustomers)
    .where(and(eq(billingCustomers.userId, sql.placeholder("userId")), eq(billingCustomers.provider, "stripe")))
    .limit(1),
);

/**
 * The user's subscription as the billing and scaling pages show it, from the account's entitlements:
 * `known` when the request has read them already (the dashboard gate did), else read here.
 */
export async function getSubscriptionSummary(
  db: Db,
  userId: string,
  now = new Date(),
  known?: Promise<Entitlements>,
): Promise<SubscriptionSummary> {
  const [entitlements, [customer]] = await Promise.all([
    known ?? getEntitlements(db, userId, now),
    stripeCustomerQuery(db).execute({ userId }),
  ]);
  const current = entitlements.plan ?? entitlements.scalingTier;
  const trial = entitlements.dashboardTrial;
  // Listed whatever their provider state, so a past-due one shows here with the way to fix it
  // (Manage Billing).
  const otherSubscriptions: PaidSubscription[] = entitlements.otherSubscriptions.map((s) => ({
    id: s.id,
    itemName: s.name,
    kind: s.kind,
    monthlyPrice: s.price,
    status: s.providerStatus,
    active: isRunning(s),
  }));
  return {
    active: current !== null,
    planName: current ? current.name : planNameOf(null),
    planType: current?.planType ?? null,
    monthlyPrice: current ? current.price : null,
    currentPeriodEnd: (current?.renewsAt ?? current?.endsAt)?.toISOString() ?? null,
    reachLimit: current?.reachLimit ?? null,
    trialEndsAt:
      (trial.state === "active" ? trial.endsAt : trial.state === "ended" ? trial.endedAt : null)?.toISOString() ?? null,
    cancelAtPeriodEnd: Boolean(current?.cancelAtPeriodEnd),
    otherSubscriptions,
    otherSubscriptionActive: entitlements.otherSubscriptions.some((s) => s.paysForDashboard),
    hasBillingAccount: Boolean(customer),
  };
}
