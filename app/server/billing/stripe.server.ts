import { and, eq } from "drizzle-orm";
import { Stripe } from "stripe";
import { db as currentDb, type Db } from "../db/client.server";
import { billingCustomers, type OrderRow } from "../db/schema";
import { env } from "../env.server";
import type { CheckoutProvider, CreateSessionInput, ResumedSession } from "./provider-types.server";

/**
 * Stripe provider (docs/decisions/0008-stripe-provider.md): hosted Checkout Sessions built only from
 * the order row, so the amount Stripe charges is the amount the server priced.
 */

type StripeConfig = NonNullable<ConstructorParameters<typeof Stripe>[1]>;

let cached: { key: string; apiUrl: string | undefined; client: Stripe } | undefined;

/** The SDK client for the configured key; STRIPE_API_URL points it at a stand-in (tests). */
export function stripeClient(): Stripe {
  const e = env();
  if (!e.STRIPE_SECRET_KEY) throw new Error("STRIPE_SECRET_KEY is not set");
  if (cached && cached.key === e.STRIPE_SECRET_KEY && cached.apiUrl === e.STRIPE_API_URL) return cached.client;
  const config: StripeConfig = {
    // Every POST carries an idempotency key, so a retried request never creates a second object.
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: "ai-automation-apps" },
  };
  if (e.STRIPE_API_URL) {
    const url = new URL(e.STRIPE_API_URL);
    const protocol = url.protocol === "http:" ? "http" : "https";
    config.host = url.hostname;
    config.protocol = protocol;
    config.port = url.port || (protocol === "http" ? 80 : 443);
  }
  const client = new Stripe(e.STRIPE_SECRET_KEY, config);
  cached = { key: e.STRIPE_SECRET_KEY, apiUrl: e.STRIPE_API_URL, client };
  return client;
}

/** The user's stored Stripe customer id, if a checkout has created one. */
export async function stripeCustomerOf(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ customerId: billingCustomers.customerId })
    .from(billingCustomers)
    .where(and(eq(billingCustomers.userId, userId), eq(billingCustomers.provider, "stripe")))
    .limit(1);
  return row?.customerId ?? null;
}

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

/**
 * A customer-portal session for the user's OWN stored customer id (never one from the request).
 * Null when the user has no Stripe customer yet.
 */
export async function openBillingPortal(db: Db, userId: string, returnUrl: string): Promise<{ url: string } | null> {
  const customerId = await stripeCustomerOf(db, userId);
  if (!customerId) return null;
  const session = await stripeClient().billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
  return { url: session.url };
}
