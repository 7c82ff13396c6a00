import { Stripe } from "stripe";
import { db as currentDb } from "../../db/client.server";
import { type OrderRow } from "../../db/schema";
import { capturesAfterTrial, chargedAtTrialEnd, trialCaptureAt } from "../due-today.server";
import type { CheckoutProvider, CreateSessionInput, ResumedSession } from "../provider-types.server";
import { checkoutLineItems } from "./catalogue-prices.server";
import { getSettings } from "../../profile/settings.server";
import { stripeClient, stripeCustomerOf } from "./client.server";

/**
 * Stripe provider (docs/decisions/0008-stripe-provider.md): hosted Checkout Sessions built only from
 * the order row, so the amount Stripe charges is the amount the server priced, sold as the
 * catalogue's Prices (docs/decisions/0060-plan-changes-with-proration.md).
 */

/**
 * The Checkout Session parameters of an order: every amount comes from the order row. `lineItems` are
 * the order's lines as catalogue Prices (checkoutLineItems in catalogue-prices.server.ts).
 */
export function checkoutSessionParams(
  order: OrderRow,
  input: Pick<CreateSessionInput, "customer" | "successUrl" | "cancelUrl">,
  customerId: string | null,
  lineItems: Stripe.Checkout.SessionCreateParams.LineItem[],
  timeZone: string | null = null,
): Stripe.Checkout.SessionCreateParams {
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
  } else if (capturesAfterTrial(order)) {
    // A one-time build's free trial: the card is authorised now and captured when the trial ends
    // (capture-trial.server.ts), unless the customer cancels first (docs/decisions/0045-trial-then-capture.md).
    params.payment_intent_data = { metadata, capture_method: "manual" };
    params.custom_text = { submit: { message: trialChargeNotice(order, new Date(), timeZone ?? "UTC") } };
  } else {
    params.payment_intent_data = { metadata };
  }
  return params;
}

/**
 * What Stripe's page says above its button: Stripe shows the authorised amount as the total, so the
 * page says that nothing is taken today and when the amount is. The date is the trial's end if the
 * buyer pays today, in the account's time zone (Stripe's page cannot know it; UTC when the account
 * has none yet).
 */
export function trialChargeNotice(order: OrderRow, now = new Date(), timeZone = "UTC"): string {
  const amount = `$${(chargedAtTrialEnd(order) / 100).toLocaleString("en-US", { minimumFractionDigits: 0, maximumFractionDigits: 2 })}`;
  const date = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone }).format(trialCaptureAt(order, now));
  return (
    `Due today $0. ${order.trialDays}-day free trial: your card is authorised now and ${amount} is charged ` +
    `${order.trialDays} days after checkout (${date} if you check out today), unless you cancel the trial ` +
    `in your dashboard's billing page before then.`
  );
}

export function stripeProvider(): CheckoutProvider {
  return {
    name: "stripe",
    async createSession(input) {
      const [customerId, settings] = await Promise.all([
        stripeCustomerOf(currentDb(), input.customer.userId),
        getSettings(currentDb(), input.customer.userId),
      ]);
      const stripe = stripeClient();
      const lineItems = await checkoutLineItems(stripe, input.order);
      const session = await stripe.checkout.sessions.create(
        checkoutSessionParams(input.order, input, customerId, lineItems, settings.timeZone),
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
