import { and, eq } from "drizzle-orm";
import { Stripe } from "stripe";
import { type Db } from "../../db/client.server";
import { billingCustomers } from "../../db/schema";
import { env } from "../../env.server";

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

/**
 * Drops the cached SDK client, so the next stripeClient() makes a new one: tests, whose Stripe
 * stand-in of one file is gone when the next file starts (and its port may be given to the next one).
 */
export function resetStripeClient() {
  cached = undefined;
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
