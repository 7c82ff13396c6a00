import type { OrderRow } from "../db/schema";

/**
 * One interface for every payment provider (DESIGN.md section 4): create a hosted checkout
 * session for a pending order; the provider later reports the payment through a signed event
 * (Stripe webhook) or its own page (local), and both end in `fulfilOrder`. The interface lives
 * apart from the registry that picks a provider, so an adapter (stripe/checkout-provider.server.ts) and the registry
 * (provider.server.ts) both depend on it and the registry alone depends on the adapters.
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
