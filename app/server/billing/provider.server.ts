import { randomBytes } from "node:crypto";
import { env } from "../env.server";
import type { OrderRow } from "../db/schema";

/**
 * One interface for every payment provider (DESIGN.md section 4): create a hosted checkout
 * session for a pending order; the provider later reports the payment through a signed event
 * (Stripe webhook) or its own page (local), and both end in `fulfilOrder`.
 */
export interface CreateSessionInput {
  order: OrderRow;
  customer: { userId: string; email: string; name: string };
  /** Absolute URLs. Stripe replaces {CHECKOUT_SESSION_ID} in the success URL. */
  successUrl: string;
  cancelUrl: string;
}

export interface CheckoutProvider {
  readonly name: "local" | "stripe";
  createSession(input: CreateSessionInput): Promise<{ sessionId: string; url: string }>;
}

/**
 * The built-in provider: its hosted page is /checkout/local/:sessionId on this server, and session
 * ids are unguessable (192 random bits), in the shape payment providers use.
 */
export const localProvider: CheckoutProvider = {
  name: "local",
  async createSession() {
    const sessionId = `cs_local_${randomBytes(24).toString("base64url")}`;
    return { sessionId, url: `/checkout/local/${sessionId}` };
  },
};

let override: CheckoutProvider | undefined;

/** Tests swap the provider without touching the environment. */
export function setCheckoutProvider(provider: CheckoutProvider | undefined) {
  override = provider;
}

export async function checkoutProvider(): Promise<CheckoutProvider> {
  if (override) return override;
  if (!env().STRIPE_ENABLED) return localProvider;
  const { stripeProvider } = await import("./stripe.server");
  return stripeProvider();
}
