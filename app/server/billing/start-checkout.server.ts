import type { CheckoutRefusal, CheckoutRefusalCode } from "~/lib/checkout-codes";
import { checkoutRequestSchema } from "~/lib/checkout-request";
import type { Db } from "../db/client.server";
import { RATE_LIMITS, takeAttempt, tooManyRequestsMessage } from "../limits/rate-limits.server";
import { CheckoutError } from "./checkout-error.server";
import { createCheckout } from "./create-checkout.server";
import { planChangePath } from "./plan-changes.server";
import { quotePlanChange } from "./quote-plan-change.server";

/** A checkout that was not started: the refusal the client reads, its HTTP status and, for a 429, its wait. */
export interface CheckoutRefused {
  refused: CheckoutRefusal;
  status: number;
  retryAfterSeconds?: number;
}

export type CheckoutStart = { url: string } | CheckoutRefused;

export function refuseCheckout(
  status: number,
  code: CheckoutRefusalCode,
  message: string,
  extra: { field?: string; retryAfterSeconds?: number } = {},
): CheckoutRefused {
  const refused: CheckoutRefusal = { code, message };
  if (extra.field) refused.field = extra.field;
  return { refused, status, ...(extra.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: extra.retryAfterSeconds }) };
}

/** The answer's headers: a refused checkout's Retry-After when it has one. */
export function refusalHeaders(refused: CheckoutRefused): Record<string, string> | undefined {
  return refused.retryAfterSeconds === undefined ? undefined : { "Retry-After": String(refused.retryAfterSeconds) };
}

/**
 * The one way a checkout asked for over HTTP starts (POST /api/checkout and every page's
 * no-JavaScript checkout form): `body` is checked by the strict request schema, the attempt is
 * counted against the account's and the client address's checkout limits before any order row or
 * payment provider call, then `createCheckout` prices it and opens the provider's session (or, for an
 * account that already pays for a plan, `quotePlanChange` prices the change and the answer is its
 * confirmation page). Every
 * refusal comes back as a value with its shared code (app/lib/checkout-codes.ts); anything else
 * thrown is a fault, not a refusal.
 */
export async function startCheckout(
  db: Db,
  user: { id: string; email: string; name?: string | null },
  body: unknown,
  client: { ip: string | null },
): Promise<CheckoutStart> {
  const parsed = checkoutRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.code === "unrecognized_keys")
      return refuseCheckout(400, "invalid_input", `Unexpected field: ${issue.keys.join(", ")}`);
    // Spec section 8: an app that is not a valid one is 'Invalid app data', whichever field is wrong.
    if (typeof body === "object" && body !== null && (body as { kind?: unknown }).kind === "app")
      return refuseCheckout(400, "invalid_input", "Invalid app data");
    return refuseCheckout(400, "invalid_input", issue?.message ?? "Invalid checkout request", {
      field: issue?.path.join(".") || undefined,
    });
  }
  const decision = await takeAttempt(db, RATE_LIMITS.checkout, { userId: user.id, ip: client.ip });
  if (!decision.allowed) {
    const wait = decision.retryAfterSeconds;
    return refuseCheckout(429, "rate_limited", tooManyRequestsMessage(wait), { retryAfterSeconds: wait });
  }
  try {
    // A subscriber picking another plan or tier changes the subscription they have (prorated)
    // instead of paying a second one: the answer is the change's confirmation page.
    const change = await quotePlanChange(db, user.id, parsed.data);
    if (change) return { url: planChangePath(change.id) };
    return { url: (await createCheckout(db, user, parsed.data)).url };
  } catch (error) {
    if (error instanceof CheckoutError) return refuseCheckout(error.status, error.code, error.message);
    throw error;
  }
}
