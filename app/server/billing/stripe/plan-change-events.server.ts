import { and, eq } from "drizzle-orm";
import type { Stripe } from "stripe";
import type { Db } from "../../db/client.server";
import { type OrderRow, orders } from "../../db/schema";
import { applyPlanChangeInTx, changeDetails, PLAN_CHANGE_KIND } from "../plan-changes.server";
import { idOf } from "./ids.server";

/**
 * Stripe's events of a plan change (stripe/plan-change.server.ts): the update's
 * customer.subscription.updated and its proration invoice's invoice.paid. Either may arrive before
 * the confirm has recorded the change (or instead of it, if that transaction never ran), so each
 * applies the change through the same once-only applyPlanChangeInTx. The update's metadata names the
 * order (change_order_id); the subscription, the new Price and the proration date must match it.
 */

async function changeOrder(tx: Db, orderId: string | undefined, subscriptionId: string): Promise<OrderRow | null> {
  if (!orderId || !/^[0-9a-f-]{36}$/.test(orderId)) return null;
  const [order] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.kind, PLAN_CHANGE_KIND), eq(orders.provider, "stripe")))
    .limit(1);
  if (!order || changeDetails(order).providerSubscriptionId !== subscriptionId) return null;
  return order;
}

/** customer.subscription.updated: the subscription now on the change's Price applies the change. */
export async function applyPlanChangeOfSubscription(tx: Db, subscription: Stripe.Subscription): Promise<boolean> {
  const order = await changeOrder(tx, subscription.metadata?.change_order_id, subscription.id);
  if (!order || order.status === "paid") return false;
  const priceId = idOf(subscription.items?.data?.[0]?.price ?? null);
  if (!priceId || priceId !== changeDetails(order).stripe?.priceId) return false;
  return (await applyPlanChangeInTx(tx, order.id)) !== null;
}

/** invoice.paid of a proration invoice: the change is made (Stripe refuses an unpaid one) and paid. */
export async function applyPlanChangeOfInvoice(tx: Db, invoice: Stripe.Invoice, subscriptionId: string): Promise<boolean> {
  if (invoice.billing_reason !== "subscription_update") return false;
  const details = invoice.parent?.subscription_details;
  const order = await changeOrder(tx, details?.metadata?.change_order_id, subscriptionId);
  if (!order) return false;
  // A later update of the same subscription (in the customer portal) carries the same metadata.
  if (details?.subscription_proration_date && details.subscription_proration_date !== changeDetails(order).prorationDate)
    return false;
  await applyPlanChangeInTx(tx, order.id, { payment: { amount: invoice.amount_paid, ref: invoice.id } });
  return true;
}
