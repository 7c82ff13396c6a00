import type { CheckoutRequest } from "~/lib/checkout-request";
import type { Db } from "../db/client.server";
import { RATE_LIMITS, takeAttempt, tooManyRequestsMessage } from "../limits/rate-limits.server";
import { CheckoutError, createCheckout, type CheckoutResult } from "./checkout.server";

/**
 * A checkout asked for over HTTP (POST /api/checkout and every page's no-JavaScript checkout form):
 * the attempt is counted against the account's and the client address's checkout limits first, and
 * refused with a 429 CheckoutError past them, before any order row or payment provider call.
 */
export async function startCheckoutWithinLimits(
  db: Db,
  user: { id: string; email: string; name?: string | null },
  req: CheckoutRequest,
  client: { ip: string | null },
): Promise<CheckoutResult> {
  const decision = await takeAttempt(db, RATE_LIMITS.checkout, { userId: user.id, ip: client.ip });
  if (!decision.allowed) {
    const wait = decision.retryAfterSeconds;
    throw new CheckoutError("rate_limited", tooManyRequestsMessage(wait), 429, wait);
  }
  return createCheckout(db, user, req);
}
