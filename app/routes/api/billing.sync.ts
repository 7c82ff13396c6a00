import { data } from "react-router";
import { z } from "zod";
import { SESSION_ID_PATTERN } from "~/server/billing/checkout-paths.server";
import { getOrderForUser } from "~/server/billing/list-orders.server";
import { checkoutProvider } from "~/server/billing/provider.server";
import { syncCheckoutSession } from "~/server/billing/stripe/checkout-session-events.server";
import { stripeClient } from "~/server/billing/stripe/client.server";
import { db } from "~/server/db/client.server";
import { log, errorMessage } from "~/server/log.server";
import { getSubscriptionSummary } from "~/server/billing/subscription-summary.server";
import { methodNotAllowed, readJsonBody, signedInPost } from "~/server/http/api.server";
import { takeRequestAttempt, tooManyRequests } from "~/server/http/request-limit.server";
import { RATE_LIMITS } from "~/server/limits/rate-limits.server";

/**
 * POST /api/billing/sync (the spec's check-subscription): the return page calls it with its
 * `session_id`, so a payment whose webhook has not arrived yet is fulfilled now (same checks as the
 * webhook, the user's own order only), then answers the subscription summary. Limited per account
 * and address (RATE_LIMITS.billingSync): each one may be a call to the payment provider's API.
 */
const bodySchema = z.strictObject({
  sessionId: z.string().regex(SESSION_ID_PATTERN, "Invalid session id").optional(),
});
const MAX_BODY_BYTES = 1024;

export async function action({ request }: { request: Request }) {
  const signedIn = await signedInPost(request);
  if ("answer" in signedIn) return signedIn.answer;
  const { user } = signedIn;

  const body = await readJsonBody(request, MAX_BODY_BYTES, { emptyAs: {} });
  if ("answer" in body) return body.answer;
  const parsed = bodySchema.safeParse(body.json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.code === "unrecognized_keys")
      return data({ error: `Unexpected field: ${issue.keys.join(", ")}` }, { status: 400 });
    return data({ error: issue?.message ?? "Invalid request" }, { status: 400 });
  }
  const allowed = await takeRequestAttempt(request, RATE_LIMITS.billingSync, user.id);
  if (!allowed.allowed) return tooManyRequests(allowed.retryAfterSeconds);

  const database = db();
  let order: { status: string; kind: string } | null = null;
  const { sessionId } = parsed.data;
  if (sessionId) {
    const own = await getOrderForUser(database, user.id, sessionId);
    if (!own) return data({ error: "Order not found" }, { status: 404 });
    order = { status: own.status, kind: own.kind };
    if ((await checkoutProvider()).name === "stripe" && own.provider === "stripe") {
      try {
        const result = await syncCheckoutSession(database, stripeClient(), own);
        if (result === "fulfilled") order = { status: "paid", kind: own.kind };
      } catch (error) {
        // The webhook still settles it; the page shows the state we have.
        log.warn("billing sync failed", {
          orderId: own.id,
          error: errorMessage(error),
        });
      }
    }
  }
  const subscription = await getSubscriptionSummary(database, user.id);
  return data({ subscription, order }, { headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  return methodNotAllowed();
}
