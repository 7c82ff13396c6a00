import { and, desc, eq, notInArray } from "drizzle-orm";
import { PLAN_ORDER_KINDS } from "~/catalogue/entitlements";
import type { Db } from "../db/client.server";
import { orders, userSubscriptions } from "../db/schema";
import { nextMonthlyDate } from "./next-charge.server";
import { orderOptionLabel } from "./order-labels.server";
import { grantsAccessNow } from "./subscriptions.server";

const DAY_MS = 86_400_000;

const KIND_NAMES: Record<string, string> = {
  plan: "Billing plan",
  scaling: "Scaling tier",
  addons: "Add-ons",
  app: "App",
  package: "Package",
  distributor: "Distributor program",
};

/**
 * One subscription as Manage Billing lists it. `ref` names it to the cancel action: `plan:<row id>`
 * for a plan or tier (a user_subscriptions row), `order:<order id>` for the subscriptions that are
 * their paid order (add-ons, monthly apps and packages, the distributor program).
 */
export interface ManagedSubscription {
  ref: string;
  name: string;
  kind: string;
  kindName: string;
  option: string;
  /** Cents per month. */
  monthlyPrice: number;
  /** 'active' | 'canceling' (ends at its period end) | the provider's other states ('past_due', ...). */
  state: string;
  /** When it is next charged (null once it is cancelled or not active). */
  nextChargeAt: string | null;
  /** When a cancelled one ends. */
  endsAt: string | null;
  provider: string;
  /** The local provider's subscriptions are cancelled here; Stripe's in its portal. */
  cancelable: boolean;
}

/**
 * The account's running subscriptions: the plan or tier that grants access now, and every paid
 * subscription order (whatever its provider state, as the billing page lists them).
 */
export async function listSubscriptions(db: Db, userId: string, now = new Date()): Promise<ManagedSubscription[]> {
  const [plans, orderRows] = await Promise.all([
    db
      .select()
      .from(userSubscriptions)
      .where(and(eq(userSubscriptions.userId, userId), grantsAccessNow))
      .orderBy(desc(userSubscriptions.updatedAt)),
    db
      .select()
      .from(orders)
      .where(
        and(
          eq(orders.userId, userId),
          eq(orders.isSubscription, true),
          eq(orders.status, "paid"),
          notInArray(orders.kind, [...PLAN_ORDER_KINDS]),
        ),
      )
      .orderBy(desc(orders.paidAt), desc(orders.createdAt)),
  ]);
  const fromPlans = plans.map((row): ManagedSubscription => {
    const kind = row.planType === "scaling" ? "scaling" : "plan";
    const periodEnd = row.currentPeriodEnd;
    const canceling = row.cancelAtPeriodEnd;
    return {
      ref: `plan:${row.id}`,
      name: row.planName ?? "Plan",
      kind,
      kindName: KIND_NAMES[kind]!,
      option: row.reachLimit === null ? "Unlimited contacts" : `${row.reachLimit.toLocaleString("en-US")} contacts`,
      monthlyPrice: row.monthlyPrice ?? 0,
      state: canceling ? "canceling" : "active",
      nextChargeAt: !canceling && periodEnd ? nextMonthlyDate(periodEnd, now).toISOString() : null,
      endsAt: canceling && periodEnd ? periodEnd.toISOString() : null,
      provider: row.provider ?? "local",
      cancelable: row.provider === "local" && !canceling,
    };
  });
  const fromOrders = orderRows.map((order): ManagedSubscription => {
    const state = order.subscriptionStatus ?? "active";
    // The first period ends a month after payment, or when the free trial ends.
    const paidAt = order.paidAt ?? order.createdAt;
    const anchor = order.trialDays > 0 ? new Date(paidAt.getTime() + order.trialDays * DAY_MS) : nextMonthlyDate(paidAt, paidAt);
    return {
      ref: `order:${order.id}`,
      name: order.itemName,
      kind: order.kind,
      kindName: KIND_NAMES[order.kind] ?? order.kind,
      option: orderOptionLabel(order),
      monthlyPrice: order.amount,
      state,
      nextChargeAt: state === "active" ? nextMonthlyDate(anchor, now).toISOString() : null,
      endsAt: null,
      provider: order.provider,
      cancelable: order.provider === "local" && state === "active",
    };
  });
  return [...fromPlans, ...fromOrders];
}
