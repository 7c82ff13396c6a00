import { randomBytes } from "node:crypto";
import { env } from "../env.server";
import type { CheckoutProvider } from "./provider-types.server";
import { stripeProvider } from "./stripe/checkout-provider.server";

const localCheckoutUrl = (sessionId: string) => `/checkout/local/${sessionId}`;

/**
 * The built-in provider: its hosted page is /checkout/local/:sessionId on this server, and session
 * ids are unguessable (192 random bits), in the shape payment providers use.
 */
export const localProvider: CheckoutProvider = {
  name: "local",
  async createSession() {
    const sessionId = `cs_local_${randomBytes(24).toString("base64url")}`;
    return { sessionId, url: localCheckoutUrl(sessionId) };
  },
  // The local page never expires; a paid order is found by its status before this is asked.
  async resumeSession(sessionId) {
    return { status: "open", url: localCheckoutUrl(sessionId) };
  },
};

let override: CheckoutProvider | undefined;

/** Tests swap the provider without touching the environment. */
export function setCheckoutProvider(provider: CheckoutProvider | undefined) {
  override = provider;
}

/** The provider every checkout goes to: Stripe when it is configured, else the local one. */
export async function checkoutProvider(): Promise<CheckoutProvider> {
  if (override) return override;
  if (!env().STRIPE_ENABLED) return localProvider;
  return stripeProvider();
}
