import { data } from "react-router";
import { handleStripeEvent } from "~/server/billing/stripe/webhook.server";
import { stripeClient } from "~/server/billing/stripe/client.server";
import { db } from "~/server/db/client.server";
import { env } from "~/server/env.server";
import { log, errorMessage } from "~/server/log.server";
import { methodNotAllowed } from "~/server/http/api.server";

/**
 * POST /api/webhooks/stripe (docs/decisions/0008-stripe-provider.md). The signature covers the raw
 * bytes, so the body is read as text and verified before anything is parsed or written. Exempt from
 * the Origin check: Stripe is not a browser, the signature is the authentication.
 */

/** Stripe's own default: a signed request older than this is a replay. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
const MAX_BODY_BYTES = 512 * 1024;

export async function action({ request }: { request: Request }) {
  if (request.method !== "POST") return methodNotAllowed();
  const e = env();
  if (!e.STRIPE_ENABLED || !e.STRIPE_WEBHOOK_SECRET) return data({ error: "Not found" }, { status: 404 });

  const signature = request.headers.get("stripe-signature");
  if (!signature) return data({ error: "Missing Stripe-Signature header" }, { status: 400 });
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) return data({ error: "Request body too large" }, { status: 413 });
  const body = await request.text();
  if (body.length > MAX_BODY_BYTES) return data({ error: "Request body too large" }, { status: 413 });

  const stripe = stripeClient();
  let event;
  try {
    event = await stripe.webhooks.constructEventAsync(body, signature, e.STRIPE_WEBHOOK_SECRET, SIGNATURE_TOLERANCE_SECONDS);
  } catch {
    // Wrong secret, altered body, stale timestamp or a malformed header: nothing is trusted or written.
    return data({ error: "Invalid signature" }, { status: 400 });
  }

  try {
    // The Stripe calls an applied event implies are jobs its transaction enqueued (stripe-follow-up).
    const outcome = await handleStripeEvent(db(), stripe, event);
    return data({ received: true, outcome }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    // Non-2xx makes Stripe deliver the event again; the rolled-back transaction left nothing behind.
    log.error("stripe webhook failed", {
      eventId: event.id,
      type: event.type,
      error: errorMessage(error),
    });
    return data({ error: "Webhook processing failed" }, { status: 500 });
  }
}

export function loader() {
  return methodNotAllowed();
}
