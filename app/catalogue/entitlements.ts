/**
 * What an account has now, derived from its rows (trial_access, user_subscriptions, paid orders,
 * user_addons). Pure: the server reads the rows (app/server/billing/entitlements.server.ts) and
 * every page asks these functions, so "is this account entitled?" has one answer.
 *
 * What "pays for" means (the dashboard gate; ADR "what pays for the dashboard"): the dashboard's
 * own 7-day trial, or a running subscription the customer is paying for: a billing plan or scaling
 * tier, add-ons, or a monthly app, package or distributor membership that is past its free trial
 * (or charged a setup fee at checkout). A subscription still in its free trial grants that item
 * only: a $0 app trial never reopens a dashboard whose trial has ended.
 */
import { isTrialActive, type TrialFields } from "./trial";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Provider states after which a subscription is gone for good ('canceled' also ends the order). */
const ENDED_SUBSCRIPTION_STATES = new Set(["canceled", "incomplete_expired"]);

/**
 * Order kinds whose subscription is a user_subscriptions row (billing plans, scaling tiers, the
 * chooser's member plans, and the changes between them): the row is the entitlement, not the order.
 */
export const PLAN_ORDER_KINDS: readonly string[] = ["plan", "scaling", "member", "plan-change"];

export type DashboardTrial =
  | { state: "not-started" }
  | { state: "active"; startedAt: Date | null; endsAt: Date }
  | { state: "ended"; startedAt: Date | null; endedAt: Date | null };

/**
 * A subscription's state now:
 * - trialing: inside its free trial, nothing charged yet (grants the item, not the dashboard);
 * - active: charged and renewing;
 * - ending: active, cancelled at the end of the paid period;
 * - lapsed: the provider reports it unpaid (past_due, unpaid, paused, incomplete): listed with
 *   the way to fix it, grants nothing.
 * A one-time purchase is 'owned'.
 */
export type ItemState = "trialing" | "active" | "ending" | "lapsed" | "owned";

export interface EntitledItem {
  /** The order id (user_subscriptions rows: their order, else 'subscription-<id>'). */
  id: string;
  kind: string;
  itemId: string;
  name: string;
  /** Cents per month; one-time purchases: the amount paid. */
  price: number;
  isSubscription: boolean;
  /** The checkout provider that bills it ('local' | 'stripe'). */
  provider: string;
  /** The free trial the order started with (0 for plans and tiers, or without one). */
  trialDays: number;
  state: ItemState;
  /** The provider's latest word ('active' when never reported). */
  providerStatus: string;
  /** End of the free trial, while trialing. */
  trialEndsAt: Date | null;
  /** Next charge of a renewing subscription, when known. */
  renewsAt: Date | null;
  /** When an 'ending' subscription stops. */
  endsAt: Date | null;
  paidAt: Date | null;
  pricingTab: string | null;
  /** What was bought beyond item id/name (package delivery, add-on ids...), as on the order. */
  details: Record<string, unknown>;
  /** This item alone gives the account the dashboard (see the module comment). */
  paysForDashboard: boolean;
}

export interface EntitledPlan extends EntitledItem {
  /** Its user_subscriptions row. */
  subscriptionId: number;
  planType: string | null;
  /** Contacts per month; null when unlimited or not recorded. */
  reachLimit: number | null;
  cancelAtPeriodEnd: boolean;
}

interface EntitledAddon {
  addonId: string;
  name: string;
  /** Cents per month. */
  monthlyPrice: number;
  orderId: string | null;
}

export type DashboardAccess =
  { granted: true; reason: "trial" | "paid" } | { granted: false; reason: "trial-not-started" | "trial-ended" };

export interface Entitlements {
  dashboardTrial: DashboardTrial;
  /** The billing plan (Basic/Pro/Enterprise) that grants access now. */
  plan: EntitledPlan | null;
  /** The scaling tier that grants access now (a tier replaces the plan: one is active at a time). */
  scalingTier: EntitledPlan | null;
  /** Owned add-ons (user_addons 'active'), by id. */
  addons: EntitledAddon[];
  /** Paid app orders, one-time and monthly, newest first (ended subscriptions left out). */
  apps: EntitledItem[];
  /** Paid package orders, newest first (ended subscriptions left out). */
  packages: EntitledItem[];
  /** The distributor membership, while its subscription has not ended. */
  distributor: EntitledItem | null;
  /**
   * Every paid subscription other than the plan or tier (add-on orders, monthly apps and packages,
   * the distributor program), lapsed ones included: the billing page lists them.
   */
  otherSubscriptions: EntitledItem[];
  dashboardAccess: DashboardAccess;
  /** Something the account pays for opens the dashboard, trial or not (see the module comment). */
  paying: boolean;
  /** Cents per month of every running subscription (trialing, active or ending; not lapsed). */
  monthlyTotal: number;
  /**
   * Every free trial the account has had of a subscription item, ended, refunded or canceled ones
   * included: one free trial per item and account (ask `hadTrial`).
   */
  trialsUsed: TrialUse[];
}

/** A subscription order that started a free trial of its item (fulfilled: paid at some point). */
interface TrialUse {
  kind: string;
  itemId: string;
  orderId: string;
}

/** The rows the derivation reads (column names as the schema's). */
export interface TrialRow extends TrialFields {
  selectedPlan?: string | null;
  planPrice?: number | null;
}

export interface SubscriptionRow {
  id: number;
  planName: string | null;
  planType: string | null;
  status: string;
  monthlyPrice: number | null;
  currentPeriodEnd: Date | null;
  reachLimit: number | null;
  orderId: string | null;
  cancelAtPeriodEnd: boolean;
  updatedAt: Date;
  provider: string | null;
}

export interface OrderFields {
  id: string;
  provider: string;
  kind: string;
  itemId: string;
  itemName: string;
  pricingTab: string | null;
  amount: number;
  isSubscription: boolean;
  trialDays: number;
  setupFee: number;
  status: string;
  subscriptionStatus: string | null;
  paidAt: Date | null;
  createdAt: Date;
  details: Record<string, unknown>;
}

export interface AddonRow {
  addonId: string;
  name: string;
  monthlyPrice: number;
  orderId: string | null;
}

export interface EntitlementRows {
  trial: TrialRow | null;
  subscriptions: SubscriptionRow[];
  /**
   * Paid orders, and every fulfilled subscription order that had a free trial whatever its state
   * now (plans' and tiers' orders included): the trials the account used.
   */
  orders: OrderFields[];
  addons: AddonRow[];
}

const PLAN_TYPE_NAMES: Record<string, string> = { basic: "Basic", pro: "Pro", enterprise: "Enterprise" };

/** Spec 4 'Subscription': plan_name, else the plan_type mapping, else 'Free Trial'. */
export function planNameOf(row: { planName: string | null; planType: string | null } | null | undefined): string {
  if (row?.planName) return row.planName;
  return (row?.planType && PLAN_TYPE_NAMES[row.planType]) || "Free Trial";
}

export function dashboardTrialOf(trial: TrialRow | null, now: Date): DashboardTrial {
  if (!trial?.trialStarted) return { state: "not-started" };
  if (isTrialActive(trial, now)) return { state: "active", startedAt: trial.trialActivatedAt, endsAt: trial.trialEndsAt! };
  return { state: "ended", startedAt: trial.trialActivatedAt, endedAt: trial.trialEndsAt };
}

/**
 * A user_subscriptions row grants access now: active, and not past the end of a period it was
 * cancelled at (an unknown period end keeps it).
 */
function subscriptionGrantsAccess(row: SubscriptionRow, now: Date): boolean {
  if (row.status !== "active") return false;
  return !(row.cancelAtPeriodEnd && row.currentPeriodEnd !== null && row.currentPeriodEnd.getTime() < now.getTime());
}

/** The plan or tier a user_subscriptions row is now, or null when it grants nothing. */
export function planOf(row: SubscriptionRow, now: Date): EntitledPlan | null {
  if (!subscriptionGrantsAccess(row, now)) return null;
  const ending = row.cancelAtPeriodEnd;
  return {
    id: row.orderId ?? `subscription-${row.id}`,
    kind: row.planType === "scaling" ? "scaling" : "plan",
    itemId: row.planType ?? "",
    name: planNameOf(row),
    price: row.monthlyPrice ?? 0,
    isSubscription: true,
    provider: row.provider ?? "local",
    trialDays: 0,
    state: ending ? "ending" : "active",
    providerStatus: row.status,
    trialEndsAt: null,
    renewsAt: ending ? null : row.currentPeriodEnd,
    endsAt: ending ? row.currentPeriodEnd : null,
    paidAt: null,
    pricingTab: null,
    details: {},
    paysForDashboard: true,
    subscriptionId: row.id,
    planType: row.planType,
    reachLimit: row.reachLimit,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
  };
}

/** End of an order's free trial (null without one or before it was paid). */
export function orderTrialEnd(order: Pick<OrderFields, "trialDays" | "paidAt">): Date | null {
  if (order.trialDays <= 0 || !order.paidAt) return null;
  return new Date(order.paidAt.getTime() + order.trialDays * DAY_MS);
}

/**
 * A paid order as an entitlement now, or null when it grants nothing any more (not paid, refunded,
 * or its subscription ended).
 */
export function orderItemOf(order: OrderFields, now: Date): EntitledItem | null {
  if (order.status !== "paid") return null;
  const providerStatus = order.subscriptionStatus ?? "active";
  if (order.isSubscription && ENDED_SUBSCRIPTION_STATES.has(providerStatus)) return null;
  const trialEnd = order.isSubscription ? orderTrialEnd(order) : null;
  const trialing = trialEnd !== null && trialEnd.getTime() > now.getTime();
  const state: ItemState = !order.isSubscription
    ? "owned"
    : providerStatus !== "active"
      ? "lapsed"
      : trialing
        ? "trialing"
        : "active";
  return {
    id: order.id,
    kind: order.kind,
    itemId: order.itemId,
    name: order.itemName,
    price: order.amount,
    isSubscription: order.isSubscription,
    provider: order.provider,
    trialDays: order.trialDays,
    state,
    providerStatus,
    trialEndsAt: trialing ? trialEnd : null,
    renewsAt: trialing ? trialEnd : null,
    endsAt: null,
    paidAt: order.paidAt ?? order.createdAt,
    pricingTab: order.pricingTab,
    details: order.details,
    // Money already taken at checkout (the distributor's setup fee) is paying too.
    paysForDashboard: state === "active" || (state === "trialing" && order.setupFee > 0),
  };
}

const RUNNING: ReadonlySet<ItemState> = new Set(["trialing", "active", "ending"]);

export function isRunning(item: { state: ItemState; isSubscription: boolean }): boolean {
  return item.isSubscription && RUNNING.has(item.state);
}

function newestFirst(a: OrderFields, b: OrderFields): number {
  const at = (o: OrderFields) => (o.paidAt ?? o.createdAt).getTime();
  return at(b) - at(a) || b.createdAt.getTime() - a.createdAt.getTime();
}

export function dashboardAccessOf(trial: DashboardTrial, paying: boolean): DashboardAccess {
  if (trial.state === "active") return { granted: true, reason: "trial" };
  if (paying) return { granted: true, reason: "paid" };
  return { granted: false, reason: trial.state === "ended" ? "trial-ended" : "trial-not-started" };
}

/** A fulfilled subscription order with a free trial used that item's one trial, whatever came after. */
function usedTrial(order: Pick<OrderFields, "isSubscription" | "trialDays" | "paidAt">): boolean {
  return order.isSubscription && order.trialDays > 0 && order.paidAt !== null;
}

/**
 * Whether the account already had a free trial of this item, other than through the order
 * `exceptOrderId` (the order being fulfilled is not its own earlier trial).
 */
export function hadTrial(
  entitlements: Pick<Entitlements, "trialsUsed">,
  kind: string,
  itemId: string,
  exceptOrderId?: string,
): boolean {
  return entitlements.trialsUsed.some((t) => t.kind === kind && t.itemId === itemId && t.orderId !== exceptOrderId);
}

/** Everything the account has now, from its rows. */
export function deriveEntitlements(rows: EntitlementRows, now: Date): Entitlements {
  const dashboardTrial = dashboardTrialOf(rows.trial, now);
  // The newest row that grants access wins (buying a plan or tier replaces the other).
  const current = [...rows.subscriptions]
    .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())
    .map((r) => planOf(r, now))
    .find((p) => p !== null);
  const plan = current && current.kind === "plan" ? current : null;
  const scalingTier = current && current.kind === "scaling" ? current : null;

  const items = [...rows.orders]
    .filter((o) => !PLAN_ORDER_KINDS.includes(o.kind))
    .sort(newestFirst)
    .map((o) => orderItemOf(o, now))
    .filter((i): i is EntitledItem => i !== null);
  const apps = items.filter((i) => i.kind === "app");
  const packages = items.filter((i) => i.kind === "package");
  const distributor = items.find((i) => i.kind === "distributor") ?? null;
  const otherSubscriptions = items.filter((i) => i.isSubscription);

  const paying = current !== undefined || otherSubscriptions.some((i) => i.paysForDashboard);
  const monthlyTotal =
    (current?.price ?? 0) + otherSubscriptions.filter((i) => isRunning(i)).reduce((sum, i) => sum + i.price, 0);

  return {
    dashboardTrial,
    plan,
    scalingTier,
    addons: [...rows.addons].sort((a, b) => a.addonId.localeCompare(b.addonId)),
    apps,
    packages,
    distributor,
    otherSubscriptions,
    dashboardAccess: dashboardAccessOf(dashboardTrial, paying),
    paying,
    monthlyTotal,
    trialsUsed: rows.orders.filter(usedTrial).map((o) => ({ kind: o.kind, itemId: o.itemId, orderId: o.id })),
  };
}
