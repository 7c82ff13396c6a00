import { type Db } from "../../db/client.server";
import { stripeClient, stripeCustomerOf } from "./client.server";

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
