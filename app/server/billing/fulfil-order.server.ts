import { and, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { hadTrial } from "~/catalogue/entitlements";
import { type OrderRow, orders, userAddons } from "../db/schema";
import { enqueueStripeFollowUps } from "../jobs/queue.server";
import { log } from "../log.server";
import { emailOrderFulfilled } from "../mail/event-emails.server";
import { capturesAfterTrial, chargedAtTrialEnd, dueToday } from "./due-today.server";
import { getEntitlements } from "./entitlements.server";
import type { StripeFollowUp } from "./stripe/follow-ups.server";
import { recordPayment } from "./record-payment.server";
import { applySubscriptionEntitlement } from "./subscriptions.server";

/**
 * Fulfilment is one conditional UPDATE plus the order's effects in the same transaction, so a
 * repeated or concurrent completion pays, entitles and records the payment exactly once.
 */

export interface FulfilOptions {
  /** Unique reference of the money received (default: `{provider}:{sessionId}`); null = nothing charged yet (a trial). */
  paymentRef?: string | null;
  /** Cents received (default: `dueToday(order)`, or the whole amount of a one-time build paid without its trial). */
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
      // cancelled after the commit (cancelDuplicateSubscription in stripe/follow-ups.server.ts).
      ...(duplicateOf ? { details: sql`${orders.details} || ${JSON.stringify({ duplicateOf })}::jsonb` } : {}),
    })
    .where(and(eq(orders.providerSessionId, sessionId), inArray(orders.status, ["pending", "declined"])))
    .returning();
  if (!paid) return null;
  const order = paid.isSubscription && paid.trialDays > 0 ? await withoutRepeatedTrial(tx, paid) : paid;
  // The session's period end is the end of a trial this order no longer has.
  const dropped = order.trialDays !== paid.trialDays;
  const followUps: StripeFollowUp[] = [];
  if (duplicateOf) {
    log.error("duplicate add-on subscription paid; cancelling it", { orderId: order.id, duplicateOf });
    followUps.push({ kind: "cancel-duplicate", id: order.id });
  } else {
    const { replaced } = await applyOrderEffects(tx, order, dropped ? { ...opts, currentPeriodEnd: null } : opts);
    for (const row of replaced) if (row.provider === "stripe") followUps.push({ kind: "cancel-replaced", id: String(row.id) });
  }
  if (dropped) followUps.push({ kind: "end-dropped-trial", id: order.id });
  if (!duplicateOf) await emailOrderFulfilled(tx, order, opts.currentPeriodEnd ?? null);
  // Stripe's calls run after the commit, as jobs that commit (or roll back) with this transaction.
  if (order.provider === "stripe") await enqueueStripeFollowUps(tx, followUps);
  const paymentRef = opts.paymentRef === undefined ? `${order.provider}:${order.providerSessionId}` : opts.paymentRef;
  // Checkout authorises a one-time build with a trial (authorise-trial.server.ts); paid here, it is paid in full.
  const amount = opts.paidAmount ?? (capturesAfterTrial(order) ? chargedAtTrialEnd(order) : dueToday(order));
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
 * dates are right; a Stripe subscription's trial is ended after the commit (endDroppedTrial in
 * stripe/follow-ups.server.ts). The lock makes concurrent fulfilments of one item and account take
 * turns: the later one reads after the earlier has committed, so exactly one keeps the trial.
 */
async function withoutRepeatedTrial(tx: Db, order: OrderRow): Promise<OrderRow> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`trial:${order.userId}:${order.kind}:${order.itemId}`}))`);
  if (!hadTrial(await getEntitlements(tx, order.userId), order.kind, order.itemId, order.id)) return order;
  const [updated] = await tx.update(orders).set({ trialDays: 0 }).where(eq(orders.id, order.id)).returning();
  return updated!;
}

/** Applies the order's grants; answers the subscription rows a new plan or tier replaced. */
async function applyOrderEffects(
  tx: Db,
  order: OrderRow,
  opts: FulfilOptions,
): Promise<{ replaced: { id: number; provider: string | null }[] }> {
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
  if (order.kind === "plan" || order.kind === "scaling" || order.kind === "member") {
    return applySubscriptionEntitlement(tx, order, {
      providerSubscriptionId: opts.providerSubscriptionId ?? null,
      currentPeriodEnd: opts.currentPeriodEnd ?? null,
    });
  }
  return { replaced: [] };
}
