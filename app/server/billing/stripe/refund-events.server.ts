import { and, eq, inArray, sql } from "drizzle-orm";
import type { Stripe } from "stripe";
import { type Db } from "../../db/client.server";
import { billingCustomers, orders, paymentEvents, userAddons } from "../../db/schema";
import { log } from "../../log.server";
import { idOf } from "./ids.server";

async function paymentOwner(db: Db, providerRef: string) {
  const [row] = await db
    .select({ userId: paymentEvents.userId, orderId: paymentEvents.orderId })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.providerRef, providerRef), eq(paymentEvents.kind, "payment")))
    .limit(1);
  return row;
}

/** Whose money a charge was: its payment intent, else the invoice it paid, else its customer. */
export async function ownerOfCharge(db: Db, stripe: Stripe, charge: Stripe.Charge) {
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
  return customer ? { userId: customer.userId, orderId: null } : null;
}

/**
 * An order whose refunds add up to everything paid for it becomes 'refunded' (billing history's
 * 'Refunded'); a partial refund keeps it paid. 'refunded' ends what the order granted: a one-time app
 * or package is no longer listed as owned (listPurchasedAutomations reads 'paid'), a subscription
 * order no longer makes the account active (hasActiveSubscription) nor holds the distributor
 * membership, and its add-ons stop being owned now. A plan's or tier's user_subscriptions row ends
 * with its Stripe subscription's deleted event: a refund does not cancel a subscription at Stripe,
 * the operator does (docs/decisions/0008). Idempotent: a repeated event changes nothing.
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
  const rows = await tx
    .update(orders)
    .set({ status: "refunded" })
    .where(and(eq(orders.id, orderId), inArray(orders.status, ["paid", "canceled"])))
    .returning({ id: orders.id });
  if (rows.length === 0) return false;
  await tx
    .update(userAddons)
    .set({ status: "canceled", updatedAt: sql`now()` })
    .where(and(eq(userAddons.orderId, orderId), eq(userAddons.status, "active")));
  log.info("order wholly refunded", { orderId });
  return true;
}
