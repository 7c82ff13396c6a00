import { type EntitledItem, type EntitledPlan, orderTrialEnd } from "~/catalogue/entitlements";
import type { Db } from "../db/client.server";
import { getEntitlements } from "./entitlements.server";
import { nextMonthlyDate } from "./next-charge.server";
import { orderOptionLabel } from "./order-labels.server";

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
 * subscription order (whatever its provider state, as the billing page lists them): the
 * entitlements' plan or tier and other subscriptions.
 */
export async function listSubscriptions(db: Db, userId: string, now = new Date()): Promise<ManagedSubscription[]> {
  const { plan, scalingTier, otherSubscriptions } = await getEntitlements(db, userId, now);
  const current = plan ?? scalingTier;
  return [...(current ? [fromPlan(current, now)] : []), ...otherSubscriptions.map((item) => fromOrder(item, now))];
}

function fromPlan(row: EntitledPlan, now: Date): ManagedSubscription {
  const canceling = row.cancelAtPeriodEnd;
  return {
    ref: `plan:${row.subscriptionId}`,
    name: row.name,
    kind: row.kind,
    kindName: KIND_NAMES[row.kind]!,
    option: row.reachLimit === null ? "Unlimited contacts" : `${row.reachLimit.toLocaleString("en-US")} contacts`,
    monthlyPrice: row.price,
    state: canceling ? "canceling" : "active",
    nextChargeAt: row.renewsAt ? nextMonthlyDate(row.renewsAt, now).toISOString() : null,
    endsAt: row.endsAt?.toISOString() ?? null,
    provider: row.provider,
    cancelable: row.provider === "local" && !canceling,
  };
}

function fromOrder(item: EntitledItem, now: Date): ManagedSubscription {
  const state = item.providerStatus;
  // The first period ends a month after payment, or when the free trial ends.
  const paidAt = item.paidAt!;
  const anchor = orderTrialEnd({ trialDays: item.trialDays, paidAt }) ?? nextMonthlyDate(paidAt, paidAt);
  return {
    ref: `order:${item.id}`,
    name: item.name,
    kind: item.kind,
    kindName: KIND_NAMES[item.kind] ?? item.kind,
    option: orderOptionLabel(item),
    monthlyPrice: item.price,
    state,
    nextChargeAt: state === "active" ? nextMonthlyDate(anchor, now).toISOString() : null,
    endsAt: null,
    provider: item.provider,
    cancelable: item.provider === "local" && state === "active",
  };
}
