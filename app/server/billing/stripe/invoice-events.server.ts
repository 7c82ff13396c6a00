import { and, eq } from "drizzle-orm";
import type { Stripe } from "stripe";
import { type Db } from "../../db/client.server";
import { orders, paymentEvents } from "../../db/schema";
import { emailRenewalFailed } from "../../mail/event-emails.server";
import { recordPayment } from "../record-payment.server";
import { idOf } from "./ids.server";
import { applyPlanChangeOfInvoice } from "./plan-change-events.server";
import type { EventOutcome } from "./event-outcome.server";

function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  const fromParent = invoice.parent?.subscription_details?.subscription;
  if (fromParent) return idOf(fromParent);
  // Payloads of API versions before 2025-03-31 carried the id at the top level.
  return idOf((invoice as unknown as { subscription?: string | { id: string } | null }).subscription);
}

/**
 * Renewals, and a plan change's proration invoice (plan-change-events.server.ts). The first invoice of a subscription belongs to checkout.session.completed (its
 * fulfilment records it under the same invoice id), so it is skipped here; the unique provider
 * reference would absorb a second recording anyway.
 */
export async function applyInvoicePaid(tx: Db, invoice: Stripe.Invoice): Promise<EventOutcome> {
  if (invoice.billing_reason === "subscription_create" || invoice.amount_paid <= 0) return "ignored";
  const subscriptionId = subscriptionOfInvoice(invoice);
  if (!subscriptionId) return "ignored";
  // A plan change's proration invoice is the change's payment, not a renewal of the first order.
  if (await applyPlanChangeOfInvoice(tx, invoice, subscriptionId)) return "applied";
  const [order] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.providerSubscriptionId, subscriptionId), eq(orders.provider, "stripe")))
    .limit(1);
  if (!order) return "ignored";
  const recorded = await recordPayment(tx, {
    userId: order.userId,
    orderId: order.id,
    amount: invoice.amount_paid,
    provider: "stripe",
    providerRef: invoice.id,
    currency: invoice.currency,
  });
  return recorded ? "applied" : "ignored";
}

/**
 * A renewal (or a plan change's invoice) the card refused: the customer is told what to do, once
 * per event. Nothing else changes here: Stripe retries the invoice itself and its subscription
 * events carry the consequences (past_due, then cancelled). Skipped: the first invoice (Checkout
 * shows that failure on its own page), an invoice already paid (this event arrived late), and a
 * subscription that is not one of our orders.
 */
export async function applyInvoicePaymentFailed(tx: Db, invoice: Stripe.Invoice, eventId: string): Promise<EventOutcome> {
  if (invoice.billing_reason === "subscription_create" || invoice.status === "paid" || invoice.amount_due <= 0) return "ignored";
  const subscriptionId = subscriptionOfInvoice(invoice);
  if (!subscriptionId || !invoice.id) return "ignored";
  const [order] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.providerSubscriptionId, subscriptionId), eq(orders.provider, "stripe")))
    .limit(1);
  if (!order) return "ignored";
  const [paid] = await tx
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.provider, "stripe"), eq(paymentEvents.providerRef, invoice.id)))
    .limit(1);
  if (paid) return "ignored";
  const queued = await emailRenewalFailed(tx, order, {
    eventId,
    amount: invoice.amount_due,
    currency: invoice.currency,
    nextAttemptAt: invoice.next_payment_attempt ? new Date(invoice.next_payment_attempt * 1000) : null,
  });
  return queued ? "applied" : "ignored";
}
