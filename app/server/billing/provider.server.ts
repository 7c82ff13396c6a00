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

/** An existing hosted session as the provider holds it now. */
export interface ResumedSession {
  /** 'open': the buyer can still pay at `url`; 'complete': paid; 'expired': can no longer be paid. */
  status: "open" | "complete" | "expired";
  url: string | null;
}

export interface CheckoutProvider {
  readonly name: "local" | "stripe";
  createSession(input: CreateSessionInput): Promise<{ sessionId: string; url: string }>;
  /**
   * The session `sessionId` (created by this provider) as it stands now, so a second click on the
   * same purchase returns the open checkout instead of a second order (createCheckout).
   */
  resumeSession?(sessionId: string): Promise<ResumedSession>;
}

export const localCheckoutUrl = (sessionId: string) => `/checkout/local/${sessionId}`;

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

export async function checkoutProvider(): Promise<CheckoutProvider> {
  if (override) return override;
  if (!env().STRIPE_ENABLED) return localProvider;
  const { stripeProvider, stripeClient } = await import("./stripe.server");
  return {
    ...stripeProvider(),
    async resumeSession(sessionId: string): Promise<ResumedSession> {
      const session = await stripeClient().checkout.sessions.retrieve(sessionId);
      const status: ResumedSession["status"] =
        session.status === "open" ? "open" : session.status === "complete" ? "complete" : "expired";
      return { status, url: session.url };
    },
  };
}
