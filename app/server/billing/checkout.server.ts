import { randomUUID } from "node:crypto";
import { and, desc, eq, gt, inArray, isNotNull, isNull, ne, notInArray, or, sql } from "drizzle-orm";
import { findGoal, findTimeline, funnelMultiplier } from "~/catalogue/goals";
import { canonicalIndustry } from "~/catalogue/funnel-params";
import { BILLING_PLANS, contactsAlreadyIncludedMessage, planIncludesContacts, SCALING_TIERS } from "~/catalogue/plans";
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
import type { CheckoutRefusalCode } from "~/lib/checkout-codes";
import type { CheckoutRequest } from "~/lib/checkout-request";
import { accrueCommission } from "../affiliates/ledger.server";
import { getApp } from "../catalogue/apps.server";
import type { Db } from "../db/client.server";
import { addonLibrary, orders, paymentEvents, userAddons, userSubscriptions, type OrderRow } from "../db/schema";
import { env } from "../env.server";
import { log, errorMessage } from "../log.server";
import { applySubscriptionEntitlement, grantsAccessNow } from "./subscriptions.server";
import { checkoutProvider } from "./provider.server";

/**
 * Checkout (DESIGN.md section 4): the browser says *what* it buys; the server computes the amount
 * from the catalogue, inserts a pending order, then asks the provider for a hosted session.
 * Fulfilment is one conditional UPDATE plus the order's effects in the same transaction, so a
 * repeated or concurrent completion pays, entitles and records the payment exactly once.
 */

/** A checkout refused by the rules below; its code is one of the shared refusal codes (app/lib/checkout-codes.ts). */
export class CheckoutError extends Error {
  constructor(
    readonly code: CheckoutRefusalCode,
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
      if (!app) throw new CheckoutError("unknown_item", "Invalid app data");
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
      if (!plan) throw new CheckoutError("unknown_item", "Unknown package");
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
        // Try Again goes back to the packages page as the buyer left it (paymentCancelRetryPath).
        cancelPath: `/payment-cancel?retry=${encodeURIComponent(
          packagesRetryPath({ industry: req.industry, goal: req.goal, timeline: req.timeline, mode: req.mode }),
        )}`,
      };
    }
    case "plan": {
      const plan = BILLING_PLANS.find((p) => p.type === req.planType);
      if (!plan) throw new CheckoutError("unknown_item", "Unknown plan");
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
      if (!tier) throw new CheckoutError("unknown_item", "Unknown tier");
      // The same contacts as the plan today is nothing to buy; the page shows the tier as included.
      if (planIncludesContacts({ active: true, reachLimit: await activeReachLimit(db, userId) }, tier.contacts))
        throw new CheckoutError("included_in_plan", contactsAlreadyIncludedMessage(tier.contacts), 409);
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
      if (ids.length !== req.addonIds.length) throw new CheckoutError("invalid_input", "Each add-on can be in the cart once");
      const rows = await db
        .select()
        .from(addonLibrary)
        .where(and(inArray(addonLibrary.id, ids), eq(addonLibrary.isActive, true)));
      if (rows.length !== ids.length) throw new CheckoutError("unknown_item", "Unknown or unavailable add-on");
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

/**
 * Contacts per month of the account's plan or tier that grants access now (the row the scaling
 * page shows, getSubscriptionSummary); null without one, or unlimited.
 */
async function activeReachLimit(db: Db, userId: string): Promise<number | null> {
  const [row] = await db
    .select({ reachLimit: userSubscriptions.reachLimit })
    .from(userSubscriptions)
    .where(and(eq(userSubscriptions.userId, userId), grantsAccessNow))
    .orderBy(desc(userSubscriptions.updatedAt))
    .limit(1);
  return row?.reachLimit ?? null;
}

/**
 * The /packages address of a package checkout's choices: only catalogue values (an industry as the
 * catalogue spells it, known goal and timeline ids, the payment mode) make it in, so the address is
 * always this site's packages page. Rush is chosen per button on that page and has no query field.
 */
export function packagesRetryPath(q: {
  industry?: string | null;
  goal?: string | null;
  timeline?: string | null;
  mode?: string | null;
}): string {
  const params = new URLSearchParams();
  const industry = canonicalIndustry(q.industry);
  if (industry) params.set("industry", industry);
  const goal = findGoal(q.goal);
  if (goal) params.set("goal", goal.id);
  const timeline = findTimeline(q.timeline);
  if (timeline) params.set("timeline", timeline.id);
  if (q.mode === "monthly" || q.mode === "one-time") params.set("mode", q.mode);
  const query = params.toString();
  return query ? `/packages?${query}` : "/packages";
}

/**
 * Where payment-cancel's Try Again leads for its `retry` query value: a /packages address rebuilt
 * from the known fields of that value (packagesRetryPath), else bare /packages. Never an address
 * taken as given: another path, another origin or unknown parameters are dropped.
 */
export function paymentCancelRetryPath(retry: string | null | undefined): string {
  if (!retry || retry.length > 500 || !retry.startsWith("/packages")) return "/packages";
  let url: URL;
  try {
    url = new URL(retry, "http://site.invalid");
  } catch {
    return "/packages";
  }
  if (url.origin !== "http://site.invalid" || url.pathname !== "/packages") return "/packages";
  const p = url.searchParams;
  return packagesRetryPath({
    industry: p.get("industry"),
    goal: p.get("goal"),
    timeline: p.get("timeline"),
    mode: p.get("mode"),
  });
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

/** Kinds an account holds once at a time: a second checkout of the same item resumes the open one. */
const HELD_ONCE_KINDS = new Set<string>(["addons", "plan", "scaling", "distributor"]);

/** What makes two orders the same purchase: kind, item (an add-on bundle as a set), option and price. */
function purchaseKey(o: Pick<OrderRow, "kind" | "itemId" | "pricingTab" | "amount" | "setupFee" | "isSubscription">) {
  const item = o.kind === "addons" ? o.itemId.split(",").sort().join(",") : o.itemId;
  return JSON.stringify([o.kind, item, o.pricingTab, o.amount, o.setupFee, o.isSubscription]);
}

/**
 * The account's payable (pending or declined) order of the same purchase, else a new pending
 * order, chosen under a per-account-and-kind lock so two concurrent clicks agree on one order.
 */
async function openOrderFor(
  db: Db,
  userId: string,
  draft: OrderDraft,
  providerName: string,
): Promise<{ order: OrderRow; reused: boolean }> {
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    if (HELD_ONCE_KINDS.has(draft.kind)) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`checkout:${userId}:${draft.kind}`}))`);
      const open = await tx
        .select()
        .from(orders)
        .where(
          and(
            eq(orders.userId, userId),
            eq(orders.kind, draft.kind),
            eq(orders.provider, providerName),
            inArray(orders.status, ["pending", "declined"]),
          ),
        )
        .orderBy(desc(orders.createdAt));
      const key = purchaseKey(draft);
      const same = open.find((o) => purchaseKey(o) === key);
      if (same) return { order: same, reused: true };
    }
    const id = randomUUID();
    const [order] = await tx
      .insert(orders)
      .values({
        id,
        userId,
        ...draft,
        currency: "usd",
        status: "pending",
        provider: providerName,
        // Replaced by the provider's id below; unique, so it cannot collide with a real session.
        providerSessionId: `pending_${id}`,
      })
      .returning();
    return { order: order!, reused: false };
  });
}

/**
 * Starts the checkout of `req` for `user`: a pending order first (so a provider session never
 * exists without its order), then the provider's hosted session, whose id is written back.
 *
 * An add-on bundle, plan, scaling tier or the distributor program is held once: while the account
 * has a payable order of the same purchase (a second click, a second tab), that order's checkout is
 * answered again (the provider's session while it is still open) instead of a second order whose
 * payment would charge twice (docs/decisions/0009). Fulfilment checks add-ons again (fulfilOrderInTx).
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
  for (let attempt = 0; ; attempt++) {
    const { order, reused } = await openOrderFor(db, user.id, draft, provider.name);
    if (reused && !order.providerSessionId.startsWith("pending_") && provider.resumeSession) {
      const resumed = await resumeOrNull(db, provider.resumeSession.bind(provider), order);
      if (resumed) return resumed;
      // Expired (now 'canceled') or not resumable: a new order, once.
      if (attempt === 0) continue;
    }
    return startSession(db, provider, user, draft, order);
  }
}

/** The open session of a reused order; null after marking an expired one canceled. */
async function resumeOrNull(
  db: Db,
  resume: NonNullable<Awaited<ReturnType<typeof checkoutProvider>>["resumeSession"]>,
  order: OrderRow,
): Promise<CheckoutResult | null> {
  let resumed;
  try {
    resumed = await resume(order.providerSessionId);
  } catch (error) {
    log.error("checkout session could not be resumed", { orderId: order.id, error: errorMessage(error) });
    throw new CheckoutError("provider_unavailable", "Payment system is currently unavailable. Please try again later.", 503);
  }
  if (resumed.status === "open" && resumed.url)
    return { url: resumed.url, sessionId: order.providerSessionId, orderId: order.id };
  if (resumed.status === "complete") {
    // Paid at the provider; its event is on the way. A new order would be a second payment.
    throw new CheckoutError("already_owned", ALREADY_PAYING, 409);
  }
  await db
    .update(orders)
    .set({ status: "canceled" })
    .where(and(eq(orders.id, order.id), inArray(orders.status, ["pending", "declined"])));
  return null;
}

export const ALREADY_PAYING = "This purchase has already been paid; it will appear on your account shortly.";

async function startSession(
  db: Db,
  provider: Awaited<ReturnType<typeof checkoutProvider>>,
  user: { id: string; email: string; name?: string | null },
  draft: OrderDraft,
  order: OrderRow,
): Promise<CheckoutResult> {
  const id = order.id;
  const base = env().PUBLIC_SITE_URL;
  let session: { sessionId: string; url: string };
  try {
    session = await provider.createSession({
      order,
      customer: { userId: user.id, email: user.email, name: user.name ?? "" },
      successUrl: base + order.successPath,
      cancelUrl: base + order.cancelPath,
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
  const [written] = await db
    .update(orders)
    .set({ providerSessionId: session.sessionId })
    .where(and(eq(orders.id, id), eq(orders.providerSessionId, `pending_${id}`)))
    .returning({ id: orders.id });
  if (!written) {
    // A concurrent click on the same order wrote its session first (Stripe answers the same session
    // for the same order; the local provider made a second id): answer the winner's.
    const [current] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
    if (current && current.providerSessionId !== session.sessionId && provider.resumeSession) {
      const resumed = await provider.resumeSession(current.providerSessionId);
      if (resumed.url) return { url: resumed.url, sessionId: current.providerSessionId, orderId: id };
    }
  }
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
  const duplicateOf = await ownedElsewhere(tx, sessionId);
  if (duplicateOf) {
    const [pending] = await tx.select().from(orders).where(eq(orders.providerSessionId, sessionId)).limit(1);
    if (pending?.provider !== "stripe") {
      // Nothing charged yet (the local page pays through here): the payment is refused and the order
      // ends, so the buyer is not charged twice for what they own.
      await tx
        .update(orders)
        .set({ status: "canceled" })
        .where(and(eq(orders.providerSessionId, sessionId), inArray(orders.status, ["pending", "declined"])));
      log.warn("duplicate add-on payment refused", { orderId: pending?.id, duplicateOf });
      return null;
    }
  }
  const [paid] = await tx
    .update(orders)
    .set({
      status: "paid",
      paidAt: sql`now()`,
      ...(opts.providerCustomerId ? { providerCustomerId: opts.providerCustomerId } : {}),
      ...(opts.providerSubscriptionId ? { providerSubscriptionId: opts.providerSubscriptionId } : {}),
      // Stripe has taken the money: recorded, no second entitlement, and its subscription is
      // cancelled after the commit (cancelDuplicateSubscriptions in stripe-events.server.ts).
      ...(duplicateOf ? { details: sql`${orders.details} || ${JSON.stringify({ duplicateOf })}::jsonb` } : {}),
    })
    .where(and(eq(orders.providerSessionId, sessionId), inArray(orders.status, ["pending", "declined"])))
    .returning();
  if (!paid) return null;
  const order = paid.isSubscription && paid.trialDays > 0 ? await withoutRepeatedTrial(tx, paid) : paid;
  // The session's period end is the end of a trial this order no longer has.
  const dropped = order.trialDays !== paid.trialDays;
  if (duplicateOf) log.error("duplicate add-on subscription paid; cancelling it", { orderId: order.id, duplicateOf });
  else await applyOrderEffects(tx, order, dropped ? { ...opts, currentPeriodEnd: null } : opts);
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
 * For a payable add-on order: the id of another order through which the account already owns one
 * of its add-ons, else null. createCheckout answers an open order of the same bundle again, but
 * a bundle that overlaps another (A+B, then A) or a checkout opened before the other was paid can
 * still reach here. Per-account-and-add-on locks (in a fixed order) make concurrent fulfilments of
 * the same add-on take turns, so the later one sees the earlier one's committed row.
 */
async function ownedElsewhere(tx: Db, sessionId: string): Promise<string | null> {
  const [order] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.providerSessionId, sessionId), inArray(orders.status, ["pending", "declined"])))
    .limit(1);
  if (!order || order.kind !== "addons") return null;
  const ids = [...new Set(((order.details.addons as { id: string }[] | undefined) ?? []).map((a) => a.id))].sort();
  if (ids.length === 0) return null;
  for (const addonId of ids) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`addon:${order.userId}:${addonId}`}))`);
  const [owned] = await tx
    .select({ orderId: userAddons.orderId })
    .from(userAddons)
    .where(
      and(
        eq(userAddons.userId, order.userId),
        inArray(userAddons.addonId, ids),
        eq(userAddons.status, "active"),
        or(isNull(userAddons.orderId), ne(userAddons.orderId, order.id)),
      ),
    )
    .limit(1);
  return owned ? (owned.orderId ?? "unknown") : null;
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
