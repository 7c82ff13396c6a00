import { randomUUID } from "node:crypto";
import { and, desc, eq, gt, inArray, isNotNull, isNull, ne, notInArray, or, sql } from "drizzle-orm";
import { funnelMultiplier } from "~/catalogue/goals";
import { BILLING_PLANS, SCALING_TIERS } from "~/catalogue/plans";
import {
  APP_TAB_INFO,
  findQuickPickPlan,
  quoteAddons,
  quoteApp,
  quoteBillingPlan,
  quoteDistributor,
  quotePackage,
  quoteScalingTier,
  scalingTierName,
  type AppPricingTab,
} from "~/catalogue/pricing";
import type { CheckoutRequest } from "~/lib/checkout-request";
import { accrueCommission } from "../affiliates/ledger.server";
import { getApp } from "../catalogue/apps.server";
import type { Db } from "../db/client.server";
import { addonLibrary, orders, paymentEvents, userAddons, type OrderRow } from "../db/schema";
import { env } from "../env.server";
import { log, errorMessage } from "../log.server";
import { applySubscriptionEntitlement } from "./subscriptions.server";
import { checkoutProvider } from "./provider.server";

/**
 * Checkout (DESIGN.md section 4): the browser says *what* it buys; the server computes the amount
 * from the catalogue, inserts a pending order, then asks the provider for a hosted session.
 * Fulfilment is one conditional UPDATE plus the order's effects in the same transaction, so a
 * repeated or concurrent completion pays, entitles and records the payment exactly once.
 */

export type CheckoutErrorCode = "invalid_app" | "invalid_item" | "already_owned" | "provider_unavailable";

export class CheckoutError extends Error {
  constructor(
    readonly code: CheckoutErrorCode,
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = "CheckoutError";
  }
}

export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;
const SESSION_PLACEHOLDER = "{CHECKOUT_SESSION_ID}";

export interface CheckoutResult {
  url: string;
  sessionId: string;
  orderId: string;
}

/** Everything an order row needs besides its owner, ids and provider. */
export interface OrderDraft {
  kind: CheckoutRequest["kind"];
  itemId: string;
  itemName: string;
  pricingTab: string | null;
  amount: number;
  isSubscription: boolean;
  trialDays: number;
  setupFee: number;
  details: Record<string, unknown>;
  successPath: string;
  cancelPath: string;
}

const withSession = (path: string) => `${path}${path.includes("?") ? "&" : "?"}session_id=${SESSION_PLACEHOLDER}`;

/** Prices one request from the catalogue. Unknown, inactive or already owned items are refused. */
export async function quoteOrder(db: Db, userId: string, req: CheckoutRequest): Promise<OrderDraft> {
  switch (req.kind) {
    case "app": {
      const app = await getApp(db, req.appId);
      if (!app) throw new CheckoutError("invalid_app", "Invalid app data");
      const q = quoteApp(app, req.tab);
      return {
        kind: "app",
        itemId: String(app.id),
        itemName: app.name,
        pricingTab: req.tab,
        amount: q.amount,
        isSubscription: q.isSubscription,
        trialDays: q.trialDays,
        setupFee: 0,
        details: { timeline: q.timeline, delivery: q.delivery },
        successPath: withSession("/payment-success"),
        cancelPath: "/apps?canceled=true",
      };
    }
    case "package": {
      const plan = findQuickPickPlan(req.planId);
      if (!plan) throw new CheckoutError("invalid_item", "Unknown package");
      const multiplier = funnelMultiplier(req.goal, req.timeline) ?? 1;
      const q = quotePackage(plan, { mode: req.mode, rush: req.rush, multiplier });
      return {
        kind: "package",
        itemId: plan.id,
        itemName: plan.name,
        pricingTab: q.pricingType,
        amount: q.amount,
        isSubscription: q.isSubscription,
        trialDays: q.trialDays,
        setupFee: 0,
        details: {
          mode: req.mode,
          rush: req.rush,
          multiplier,
          timeline: q.timeline,
          goal: req.goal ?? null,
          funnelTimeline: req.timeline ?? null,
          industry: req.industry ?? null,
        },
        successPath: withSession("/payment-success"),
        cancelPath: "/payment-cancel",
      };
    }
    case "plan": {
      const plan = BILLING_PLANS.find((p) => p.type === req.planType);
      if (!plan) throw new CheckoutError("invalid_item", "Unknown plan");
      const q = quoteBillingPlan(plan);
      return {
        kind: "plan",
        itemId: plan.type,
        itemName: `${plan.name} Plan`,
        pricingTab: null,
        ...q,
        details: { planType: plan.type, contacts: plan.contacts },
        successPath: withSession("/dashboard/billing?success=true"),
        cancelPath: "/dashboard/billing?canceled=true",
      };
    }
    case "scaling": {
      const tier = SCALING_TIERS[req.tierIndex];
      if (!tier) throw new CheckoutError("invalid_item", "Unknown tier");
      const q = quoteScalingTier(tier);
      return {
        kind: "scaling",
        itemId: String(req.tierIndex),
        itemName: scalingTierName(tier),
        pricingTab: null,
        ...q,
        details: { tierIndex: req.tierIndex, contacts: tier.contacts, sms: tier.sms, emails: tier.emails },
        successPath: withSession("/dashboard/scaling?success=true"),
        cancelPath: "/dashboard/scaling?canceled=true",
      };
    }
    case "addons": {
      const ids = [...new Set(req.addonIds)];
      if (ids.length !== req.addonIds.length) throw new CheckoutError("invalid_item", "Each add-on can be in the cart once");
      const rows = await db
        .select()
        .from(addonLibrary)
        .where(and(inArray(addonLibrary.id, ids), eq(addonLibrary.isActive, true)));
      if (rows.length !== ids.length) throw new CheckoutError("invalid_item", "Unknown or unavailable add-on");
      const owned = await db
        .select({ addonId: userAddons.addonId })
        .from(userAddons)
        .where(and(eq(userAddons.userId, userId), inArray(userAddons.addonId, ids), eq(userAddons.status, "active")));
      if (owned.length > 0) throw new CheckoutError("already_owned", "You already own one of these add-ons", 409);
      // Keep the buyer's order so the order name lists add-ons as they were picked.
      const byId = new Map(rows.map((r) => [r.id, r]));
      const picked = ids.map((id) => byId.get(id)!);
      const q = quoteAddons(picked);
      return {
        kind: "addons",
        itemId: ids.join(","),
        itemName: picked.length === 1 ? picked[0]!.name : `${picked.length} add-ons: ${picked.map((a) => a.name).join(", ")}`,
        pricingTab: null,
        ...q,
        details: { addons: picked.map((a) => ({ id: a.id, name: a.name, monthlyPrice: a.monthlyPrice })) },
        successPath: withSession("/dashboard/addons?success=true"),
        cancelPath: "/dashboard/addons?canceled=true",
      };
    }
    case "distributor": {
      // One membership per account (docs/decisions/0009): a second would be a second $997 setup fee
      // and a second monthly subscription for the same program.
      if (await ownsDistributorProgram(db, userId)) throw new CheckoutError("already_owned", DISTRIBUTOR_ALREADY_OWNED, 409);
      const q = quoteDistributor();
      return {
        kind: "distributor",
        itemId: "distributor",
        itemName: "AI Distributor Program",
        pricingTab: null,
        ...q,
        details: { email: req.email.toLowerCase(), fullName: req.fullName, businessName: req.businessName },
        successPath: withSession("/distributor-success"),
        cancelPath: "/distributors?canceled=true",
      };
    }
  }
}

export const DISTRIBUTOR_ALREADY_OWNED = "You are already a member of the AI Distributor Program.";

/**
 * Provider subscription states after which the subscription is gone for good. Stripe's deleted
 * event also sets the order itself to 'canceled'; 'incomplete_expired' never started.
 */
const ENDED_SUBSCRIPTION_STATES = ["canceled", "incomplete_expired"];

/**
 * Whether the account holds the distributor program: a paid distributor order whose subscription
 * has not ended. Like an owned add-on, a past-due or paused membership still counts (its payment is
 * fixed in the billing portal, not by buying the program again).
 */
export async function ownsDistributorProgram(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.kind, "distributor"),
        eq(orders.status, "paid"),
        or(isNull(orders.subscriptionStatus), notInArray(orders.subscriptionStatus, ENDED_SUBSCRIPTION_STATES)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Whether the account already had this subscription item with a trial (a fulfilled order: paid,
 * perhaps since canceled), other than the order `except`.
 */
async function hadTrial(db: Db, userId: string, kind: string, itemId: string, except?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.kind, kind),
        eq(orders.itemId, itemId),
        eq(orders.isSubscription, true),
        gt(orders.trialDays, 0),
        isNotNull(orders.paidAt),
        except ? ne(orders.id, except) : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * A pending order as paying it now would record it: without its trial when another order of the
 * same item has had one since this checkout was opened (withoutRepeatedTrial drops it at
 * fulfilment), so the test checkout page shows what is really due.
 */
export async function asItWouldBePaid(db: Db, order: OrderRow): Promise<OrderRow> {
  if (order.status === "paid" || !order.isSubscription || order.trialDays === 0) return order;
  return (await hadTrial(db, order.userId, order.kind, order.itemId, order.id)) ? { ...order, trialDays: 0 } : order;
}

/**
 * Starts the checkout of `req` for `user`: a pending order first (so a provider session never
 * exists without its order), then the provider's hosted session, whose id is written back.
 */
export async function createCheckout(
  db: Db,
  user: { id: string; email: string; name?: string | null },
  req: CheckoutRequest,
): Promise<CheckoutResult> {
  const quoted = await quoteOrder(db, user.id, req);
  // One free trial per item and account: cancelling during the trial and buying again would
  // otherwise give the item away, three days at a time.
  const draft =
    quoted.isSubscription && quoted.trialDays > 0 && (await hadTrial(db, user.id, quoted.kind, quoted.itemId))
      ? { ...quoted, trialDays: 0 }
      : quoted;
  const provider = await checkoutProvider();
  const id = randomUUID();
  const [order] = await db
    .insert(orders)
    .values({
      id,
      userId: user.id,
      ...draft,
      currency: "usd",
      status: "pending",
      provider: provider.name,
      // Replaced by the provider's id below; unique, so it cannot collide with a real session.
      providerSessionId: `pending_${id}`,
    })
    .returning();
  const base = env().PUBLIC_SITE_URL;
  let session: { sessionId: string; url: string };
  try {
    session = await provider.createSession({
      order: order!,
      customer: { userId: user.id, email: user.email, name: user.name ?? "" },
      successUrl: base + draft.successPath,
      cancelUrl: base + draft.cancelPath,
    });
  } catch (error) {
    await db.update(orders).set({ status: "failed" }).where(eq(orders.id, id));
    if (error instanceof CheckoutError) throw error;
    log.error("checkout provider failed", {
      orderId: id,
      kind: draft.kind,
      error: errorMessage(error),
    });
    throw new CheckoutError("provider_unavailable", "Payment system is currently unavailable. Please try again later.", 503);
  }
  await db.update(orders).set({ providerSessionId: session.sessionId }).where(eq(orders.id, id));
  return { url: session.url, sessionId: session.sessionId, orderId: id };
}

/**
 * What the first payment takes: a subscription with a trial charges only its setup fee now and the
 * monthly amount when the trial ends (as Stripe bills it); anything else charges amount + setup fee.
 */
export function dueToday(order: Pick<OrderRow, "amount" | "setupFee" | "isSubscription" | "trialDays">): number {
  return order.isSubscription && order.trialDays > 0 ? order.setupFee : order.amount + order.setupFee;
}

/** The site-relative address the buyer returns to after paying for `order`. */
export function successPathOf(order: Pick<OrderRow, "successPath" | "providerSessionId">): string {
  return order.successPath.replace(SESSION_PLACEHOLDER, encodeURIComponent(order.providerSessionId));
}

/** The order of a checkout session, only when it belongs to `userId`. */
export async function getOrderForUser(db: Db, userId: string, sessionId: string): Promise<OrderRow | undefined> {
  if (!SESSION_ID_PATTERN.test(sessionId)) return undefined;
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.providerSessionId, sessionId), eq(orders.userId, userId)))
    .limit(1);
  return row;
}

export interface FulfilOptions {
  /** Unique reference of the money received (default: `{provider}:{sessionId}`); null = nothing charged yet (a trial). */
  paymentRef?: string | null;
  /** Cents received (default: `dueToday(order)`). */
  paidAmount?: number;
  providerCustomerId?: string | null;
  providerSubscriptionId?: string | null;
  /** End of the first paid (or trial) period; default one month (or the trial) from now. */
  currentPeriodEnd?: Date | null;
}

/**
 * Marks the session's order paid, once, and applies its effects in the same transaction:
 * subscriptions and add-ons become active, the payment is recorded as a payment event (unique per
 * payment), and an attributed customer's affiliate accrues commission. Of any number of repeated or
 * concurrent calls exactly one returns the row; the others return null and change nothing.
 * A declined order can still be paid (the customer retries with another card on the same session).
 * A subscription whose trial the account already had is recorded without it (withoutRepeatedTrial).
 * The caller has checked who may complete the session (the owner on the local page; a signed
 * provider event for Stripe).
 */
export async function fulfilOrder(db: Db, sessionId: string, opts: FulfilOptions = {}): Promise<OrderRow | null> {
  return db.transaction((tx) => fulfilOrderInTx(tx as unknown as Db, sessionId, opts));
}

/**
 * `fulfilOrder` inside a transaction the caller already holds, so a provider event's ledger row and
 * the order's effects commit together (the Stripe webhook). Same once-only guarantee.
 */
export async function fulfilOrderInTx(tx: Db, sessionId: string, opts: FulfilOptions = {}): Promise<OrderRow | null> {
  const [paid] = await tx
    .update(orders)
    .set({
      status: "paid",
      paidAt: sql`now()`,
      ...(opts.providerCustomerId ? { providerCustomerId: opts.providerCustomerId } : {}),
      ...(opts.providerSubscriptionId ? { providerSubscriptionId: opts.providerSubscriptionId } : {}),
    })
    .where(and(eq(orders.providerSessionId, sessionId), inArray(orders.status, ["pending", "declined"])))
    .returning();
  if (!paid) return null;
  const order = paid.isSubscription && paid.trialDays > 0 ? await withoutRepeatedTrial(tx, paid) : paid;
  // The session's period end is the end of a trial this order no longer has.
  const dropped = order.trialDays !== paid.trialDays;
  await applyOrderEffects(tx, order, dropped ? { ...opts, currentPeriodEnd: null } : opts);
  const paymentRef = opts.paymentRef === undefined ? `${order.provider}:${order.providerSessionId}` : opts.paymentRef;
  const amount = opts.paidAmount ?? dueToday(order);
  if (paymentRef && amount > 0) {
    await recordPayment(tx, {
      userId: order.userId,
      orderId: order.id,
      amount,
      provider: order.provider,
      providerRef: paymentRef,
    });
  }
  return order;
}

/**
 * createCheckout only sees the trials fulfilled before it, so two checkouts of one item opened side
 * by side (two tabs; a Stripe session stays open for 24 hours) both carry the trial, and paying both
 * would start two. The one fulfilled second is recorded without it, so what is due and the billing
 * dates are right; a Stripe subscription's trial is ended after the commit (endDroppedTrials in
 * stripe-events.server.ts). The lock makes concurrent fulfilments of one item and account take
 * turns: the later one reads after the earlier has committed, so exactly one keeps the trial.
 */
async function withoutRepeatedTrial(tx: Db, order: OrderRow): Promise<OrderRow> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`trial:${order.userId}:${order.kind}:${order.itemId}`}))`);
  if (!(await hadTrial(tx, order.userId, order.kind, order.itemId, order.id))) return order;
  const [updated] = await tx.update(orders).set({ trialDays: 0 }).where(eq(orders.id, order.id)).returning();
  return updated!;
}

async function applyOrderEffects(tx: Db, order: OrderRow, opts: FulfilOptions) {
  if (order.kind === "addons") {
    const addons = (order.details.addons as { id: string }[] | undefined) ?? [];
    for (const addon of addons) {
      await tx
        .insert(userAddons)
        .values({ userId: order.userId, addonId: addon.id, status: "active", orderId: order.id })
        .onConflictDoUpdate({
          target: [userAddons.userId, userAddons.addonId],
          set: { status: "active", orderId: order.id, updatedAt: sql`now()` },
        });
    }
  }
  if (order.kind === "plan" || order.kind === "scaling") {
    await applySubscriptionEntitlement(tx, order, {
      providerSubscriptionId: opts.providerSubscriptionId ?? null,
      currentPeriodEnd: opts.currentPeriodEnd ?? null,
    });
  }
}

export interface MoneyMovement {
  userId: string;
  orderId: string | null;
  /** Cents, positive for both kinds. */
  amount: number;
  provider: string;
  /** Unique per payment or refund: a second call with it changes nothing. */
  providerRef: string;
  currency?: string;
}

/**
 * Writes one payment event once (unique provider reference) and lets the affiliate ledger consume
 * it in the same transaction: a payment accrues the referrer's commission, a refund reverses it.
 * Returns false when this event was already recorded.
 */
async function recordPaymentEvent(tx: Db, kind: "payment" | "refund", movement: MoneyMovement): Promise<boolean> {
  const [event] = await tx
    .insert(paymentEvents)
    .values({ ...movement, kind, currency: movement.currency ?? "usd" })
    .onConflictDoNothing({ target: paymentEvents.providerRef })
    .returning();
  if (!event) return false;
  await accrueCommission(tx, event);
  return true;
}

/** Money received, once, with the referrer's commission. */
export const recordPayment = (tx: Db, payment: MoneyMovement) => recordPaymentEvent(tx, "payment", payment);

/** Money returned, once, reversing the commission it carried. */
export const recordRefund = (tx: Db, refund: MoneyMovement) => recordPaymentEvent(tx, "refund", refund);

/** Records a declined payment on the owner's pending order; paid orders are never touched. */
export async function declineOrder(db: Db, userId: string, sessionId: string): Promise<OrderRow | null> {
  const [row] = await db
    .update(orders)
    .set({ status: "declined" })
    .where(and(eq(orders.providerSessionId, sessionId), eq(orders.userId, userId), eq(orders.status, "pending")))
    .returning();
  return row ?? null;
}

export interface PurchasedAutomation {
  id: string;
  kind: "app" | "package";
  name: string;
  /** The app's pricing option, or the package's delivery. */
  optionLabel: string;
  amount: number;
  isSubscription: boolean;
  paidAt: string;
}

/** The user's paid apps and packages (what /dashboard/automation lists), newest first. */
export async function listPurchasedAutomations(db: Db, userId: string): Promise<PurchasedAutomation[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), inArray(orders.kind, ["app", "package"]), eq(orders.status, "paid")))
    .orderBy(desc(orders.paidAt));
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind === "package" ? "package" : "app",
    name: r.itemName,
    optionLabel:
      r.kind === "package"
        ? `Package, ${r.pricingTab === "rush" ? "rush delivery (24-48 hours)" : "standard delivery (5-7 days)"}`
        : tabLabel(r.pricingTab),
    amount: r.amount,
    isSubscription: r.isSubscription,
    paidAt: (r.paidAt ?? r.createdAt).toISOString(),
  }));
}

/** The user's orders of every kind (billing history), newest first. */
export async function listOrders(db: Db, userId: string, limit = 50): Promise<OrderRow[]> {
  return db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.createdAt)).limit(limit);
}

export function tabLabel(tab: string | null): string {
  return tab && tab in APP_TAB_INFO ? APP_TAB_INFO[tab as AppPricingTab].label : "Standard";
}
