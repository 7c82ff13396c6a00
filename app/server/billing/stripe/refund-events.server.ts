import { and, eq, inArray, sql } from "drizzle-orm";
import type { Stripe } from "stripe";
import { type Db } from "../../db/client.server";
import { billingCustomers, orders, paymentEvents, userAddons, userSubscriptions } from "../../db/schema";
import { enqueueStripeFollowUps } from "../../jobs/queue.server";
import { log } from "../../log.server";
import { recordRefund } from "../record-payment.server";
import { idOf } from "./ids.server";

/** Whose money a charge was, and the payment event it was recorded as (null when only its customer is known). */
export interface ChargeOwner {
  userId: string;
  orderId: string | null;
  paymentEventId: number | null;
}

async function paymentOwner(db: Db, providerRef: string): Promise<ChargeOwner | undefined> {
  const [row] = await db
    .select({ userId: paymentEvents.userId, orderId: paymentEvents.orderId, paymentEventId: paymentEvents.id })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.providerRef, providerRef), eq(paymentEvents.kind, "payment")))
    .limit(1);
  return row;
}

/** Whose money a charge was: its payment intent, else the invoice it paid, else its customer. */
export async function ownerOfCharge(db: Db, stripe: Stripe, charge: Stripe.Charge): Promise<ChargeOwner | null> {
  const paymentIntent = idOf(charge.payment_intent);
  if (paymentIntent) {
    const direct = await paymentOwner(db, paymentIntent);
    if (direct) return direct;
    const payments = await stripe.invoicePayments.list({
      payment: { type: "payment_intent", payment_intent: paymentIntent },
      limit: 1,
    });
    const invoiceId = idOf(payments.data[0]?.invoice as string | { id: string } | undefined);
    const viaInvoice = invoiceId ? await paymentOwner(db, invoiceId) : undefined;
    if (viaInvoice) return viaInvoice;
  }
  const customerId = idOf(charge.customer);
  if (!customerId) return null;
  const [customer] = await db
    .select({ userId: billingCustomers.userId })
    .from(billingCustomers)
    .where(and(eq(billingCustomers.provider, "stripe"), eq(billingCustomers.customerId, customerId)))
    .limit(1);
  return customer ? { userId: customer.userId, orderId: null, paymentEventId: null } : null;
}

/**
 * An order whose refunds add up to everything paid for it becomes 'refunded' (billing history's
 * 'Refunded'); a partial refund keeps it paid. 'refunded' ends what the order granted (endOrder): a
 * one-time app or package is no longer listed as owned (listPurchasedAutomations reads 'paid'), a
 * subscription order no longer makes the account active (hasActiveSubscription) nor holds the
 * distributor membership, its add-ons stop being owned, a plan's or tier's row ends, and its Stripe
 * subscription is cancelled. Idempotent: a repeated event changes nothing.
 */
export async function endWhenWhollyRefunded(tx: Db, orderId: string): Promise<boolean> {
  const [totals] = await tx
    .select({
      paid: sql<string>`coalesce(sum(case when ${paymentEvents.kind} = 'payment' then ${paymentEvents.amount} end), 0)`,
      refunded: sql<string>`coalesce(sum(case when ${paymentEvents.kind} = 'refund' then ${paymentEvents.amount} end), 0)`,
    })
    .from(paymentEvents)
    .where(eq(paymentEvents.orderId, orderId));
  const paid = Number(totals?.paid ?? 0);
  if (paid <= 0 || Number(totals?.refunded ?? 0) < paid) return false;
  if (!(await endOrder(tx, orderId))) return false;
  log.info("order wholly refunded", { orderId });
  return true;
}

/**
 * Ends what a paid (or already canceled) order granted, as a whole refund does: the order becomes
 * 'refunded', its active add-ons and its plan's or tier's user_subscriptions row 'canceled', and a
 * Stripe subscription behind it is cancelled there after the commit (the `cancel-ended` follow-up
 * job, sent through this transaction): the money went back, so nothing may be charged again. Also
 * the end of an order whose dispute was lost. False when the order was not paid or canceled
 * (already ended, or never paid).
 */
export async function endOrder(tx: Db, orderId: string): Promise<boolean> {
  const [ended] = await tx
    .update(orders)
    .set({ status: "refunded" })
    .where(and(eq(orders.id, orderId), inArray(orders.status, ["paid", "canceled"])))
    .returning({
      provider: orders.provider,
      isSubscription: orders.isSubscription,
      providerSubscriptionId: orders.providerSubscriptionId,
      subscriptionStatus: orders.subscriptionStatus,
    });
  if (!ended) return false;
  await tx
    .update(userAddons)
    .set({ status: "canceled", updatedAt: sql`now()` })
    .where(and(eq(userAddons.orderId, orderId), eq(userAddons.status, "active")));
  // 'canceled' is final for the row: a later event of its subscription does not reopen it.
  await tx
    .update(userSubscriptions)
    .set({ status: "canceled", updatedAt: sql`now()` })
    .where(and(eq(userSubscriptions.orderId, orderId), eq(userSubscriptions.status, "active")));
  if (
    ended.provider === "stripe" &&
    ended.isSubscription &&
    ended.providerSubscriptionId &&
    ended.subscriptionStatus !== "canceled"
  )
    await enqueueStripeFollowUps(tx, [{ kind: "cancel-ended", id: orderId }]);
  return true;
}

/**
 * Records the refunds of one charge (as Stripe lists them) and ends the order once they cover it:
 * what `charge.refunded` does, and what a refund from /admin does right after Stripe accepted it,
 * so both converge on the same rows whichever comes first (refund ids are unique references).
 */
export async function applyChargeRefunds(
  tx: Db,
  owner: { userId: string; orderId: string | null },
  refunds: readonly Stripe.Refund[],
): Promise<boolean> {
  let recorded = false;
  for (const refund of refunds) {
    // Failed or canceled refunds returned nothing.
    if (refund.status !== "succeeded" && refund.status !== "pending") continue;
    recorded =
      (await recordRefund(tx, {
        userId: owner.userId,
        orderId: owner.orderId,
        amount: refund.amount,
        provider: "stripe",
        providerRef: refund.id,
        currency: refund.currency,
      })) || recorded;
  }
  const ended = owner.orderId ? await endWhenWhollyRefunded(tx, owner.orderId) : false;
  return recorded || ended;
}
