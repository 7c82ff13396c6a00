import type { Stripe } from "stripe";
import type { PlanChangeDetails, PlanRef } from "../plan-changes.server";
import { planLine } from "./catalogue-items.server";
import { cataloguePriceId } from "./catalogue-prices.server";
import { idOf, periodEndOf } from "./ids.server";

/**
 * A plan change at Stripe (docs/decisions/0060-plan-changes-with-proration.md): the subscription's
 * one item moves to the new plan's catalogue Price, prorated and invoiced at once.
 */

/** The proration settings of both the preview and the update, so they compute the same invoice. */
const PRORATION = { proration_behavior: "always_invoice" } as const;

export interface StripePlanChangeQuote {
  prorationDate: number;
  periodEnd: Date;
  net: number;
  stripe: { itemId: string; priceId: string };
}

/** Stripe's own figures for moving `subscriptionId` to `to` at `at`: its upcoming proration invoice. */
export async function previewStripePlanChange(
  stripe: Stripe,
  subscriptionId: string,
  to: PlanRef,
  at: Date,
): Promise<StripePlanChangeQuote> {
  const subscription = await stripe.subscriptions.retrieve(subscriptionId);
  const item = subscription.items.data[0];
  if (!item) throw new Error(`Stripe subscription ${subscriptionId} has no item`);
  const line = planLine(to.kind, to.itemId, to.name, to.monthlyPrice);
  const { id: priceId } = await cataloguePriceId(stripe, { ...line, lookupKey: line.lookupKey! });
  const prorationDate = Math.floor(at.getTime() / 1000);
  const preview = await stripe.invoices.createPreview({
    subscription: subscriptionId,
    subscription_details: { items: [{ id: item.id, price: priceId }], proration_date: prorationDate, ...PRORATION },
  });
  const periodEnd = periodEndOf(subscription);
  return {
    prorationDate,
    periodEnd: periodEnd ? new Date(periodEnd * 1000) : new Date(at.getTime() + 30 * 86_400_000),
    net: preview.total,
    stripe: { itemId: item.id, priceId },
  };
}

export interface StripePlanChangeResult {
  invoiceId: string | null;
  /** Cents the proration invoice took (0 for a downgrade's credit). */
  amountPaid: number;
  periodEnd: Date | null;
}

/**
 * Moves the subscription to the new Price with the previewed proration date. 'error_if_incomplete':
 * when the proration invoice cannot be paid Stripe refuses the whole update (a card error), so the
 * subscription stays on its old plan and nothing is half-changed. The idempotency key names the
 * order and the attempt: a repeated confirm replays Stripe's answer, a retry after a declined card
 * (a new attempt) is a new request. The metadata ties the proration invoice to the order, so its
 * invoice.paid event can record the payment if the confirm's own transaction never ran.
 */
export async function updateStripePlan(stripe: Stripe, orderId: string, d: PlanChangeDetails): Promise<StripePlanChangeResult> {
  if (!d.stripe) throw new Error(`plan change ${orderId} has no Stripe item`);
  const subscription = await stripe.subscriptions.update(
    d.providerSubscriptionId,
    {
      items: [{ id: d.stripe.itemId, price: d.stripe.priceId }],
      proration_date: d.prorationDate,
      payment_behavior: "error_if_incomplete",
      metadata: { change_order_id: orderId },
      expand: ["latest_invoice"],
      ...PRORATION,
    },
    { idempotencyKey: `plan-change-${orderId}-${d.attempts ?? 0}` },
  );
  const invoice = typeof subscription.latest_invoice === "object" ? subscription.latest_invoice : null;
  const periodEnd = periodEndOf(subscription);
  return {
    invoiceId: idOf(subscription.latest_invoice),
    amountPaid: invoice?.amount_paid ?? 0,
    periodEnd: periodEnd ? new Date(periodEnd * 1000) : null,
  };
}

/** Whether Stripe refused the update because the proration payment failed (402, a card error). */
export function isPaymentRefusal(error: unknown): boolean {
  const e = error as { type?: string; statusCode?: number };
  return e.type === "StripeCardError" || e.statusCode === 402;
}
