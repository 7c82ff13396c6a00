import { Stripe } from "stripe";
import { db as currentDb } from "../../db/client.server";
import { type OrderRow } from "../../db/schema";
import type { CheckoutProvider, CreateSessionInput, ResumedSession } from "../provider-types.server";
import { stripeClient, stripeCustomerOf } from "./client.server";

/**
 * Stripe provider (docs/decisions/0008-stripe-provider.md): hosted Checkout Sessions built only from
 * the order row, so the amount Stripe charges is the amount the server priced.
 */

/** The Checkout Session parameters of an order: every amount comes from the order row. */
export function checkoutSessionParams(
  order: OrderRow,
  input: Pick<CreateSessionInput, "customer" | "successUrl" | "cancelUrl">,
  customerId: string | null,
): Stripe.Checkout.SessionCreateParams {
  const currency = order.currency;
  const lineItems: Stripe.Checkout.SessionCreateParams.LineItem[] = [
    {
      quantity: 1,
      price_data: {
        currency,
        unit_amount: order.amount,
        product_data: { name: order.itemName, metadata: { kind: order.kind, item_id: order.itemId } },
        ...(order.isSubscription ? { recurring: { interval: "month" as const } } : {}),
      },
    },
  ];
  if (order.setupFee > 0) {
    // A one-time item in a subscription session is billed once, on the first invoice.
    lineItems.push({
      quantity: 1,
      price_data: { currency, unit_amount: order.setupFee, product_data: { name: `${order.itemName} setup fee` } },
    });
  }
  const metadata = { order_id: order.id, kind: order.kind };
  const params: Stripe.Checkout.SessionCreateParams = {
    mode: order.isSubscription ? "subscription" : "payment",
    line_items: lineItems,
    client_reference_id: order.id,
    metadata,
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
  };
  if (customerId) params.customer = customerId;
  else {
    params.customer_email = input.customer.email;
    // Subscription mode always creates a customer (and rejects this parameter); payment mode needs
    // one so the customer portal and later purchases find the same Stripe customer.
    if (!order.isSubscription) params.customer_creation = "always";
  }
  if (order.isSubscription) {
    params.subscription_data = {
      metadata,
      ...(order.trialDays > 0 ? { trial_period_days: order.trialDays } : {}),
    };
  } else {
    params.payment_intent_data = { metadata };
  }
  return params;
}

export function stripeProvider(): CheckoutProvider {
  return {
    name: "stripe",
    async createSession(input) {
      const customerId = await stripeCustomerOf(currentDb(), input.customer.userId);
      const session = await stripeClient().checkout.sessions.create(
        checkoutSessionParams(input.order, input, customerId),
        // One order, one session: a retried create returns the session Stripe already made.
        { idempotencyKey: `checkout-session-${input.order.id}` },
      );
      if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
      return { sessionId: session.id, url: session.url };
    },
    async resumeSession(sessionId) {
      const session = await stripeClient().checkout.sessions.retrieve(sessionId);
      const status: ResumedSession["status"] =
        session.status === "open" ? "open" : session.status === "complete" ? "complete" : "expired";
      return { status, url: session.url };
    },
  };
}
