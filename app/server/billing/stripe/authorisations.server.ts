import type { Stripe } from "stripe";

/**
 * A one-time build's authorised PaymentIntent (docs/decisions/0045-trial-then-capture.md), captured
 * when the trial ends or voided when the customer cancels. Both calls carry an idempotency key per
 * order, and an error is settled by reading the intent back: capturing or voiding an intent already
 * in that state is an error at Stripe, but it is the state wanted.
 */

export type CaptureResult = { captured: true; amount: number } | { captured: false; status: string };

/** Captures the intent; `captured: false` when it can no longer be captured (voided, expired). Throws to retry. */
export async function capturePaymentIntent(stripe: Stripe, paymentIntentId: string, orderId: string): Promise<CaptureResult> {
  try {
    const intent = await stripe.paymentIntents.capture(paymentIntentId, {}, { idempotencyKey: `trial-capture-${orderId}` });
    return { captured: true, amount: intent.amount_received };
  } catch (error) {
    if (!isStripeRefusal(error)) throw error;
    const intent = await stripe.paymentIntents.retrieve(paymentIntentId);
    if (intent.status === "succeeded") return { captured: true, amount: intent.amount_received };
    // Still capturable: the refusal was something else (a rate limit, a lock); the job retries.
    if (intent.status === "requires_capture") throw error;
    return { captured: false, status: intent.status };
  }
}

/** Releases the authorisation; true once the intent is canceled at Stripe. Throws to retry. */
export async function voidPaymentIntent(stripe: Stripe, paymentIntentId: string, orderId: string): Promise<boolean> {
  try {
    await stripe.paymentIntents.cancel(paymentIntentId, {}, { idempotencyKey: `trial-void-${orderId}` });
    return true;
  } catch (error) {
    if (!isStripeRefusal(error)) throw error;
    const intent = await stripe.paymentIntents.retrieve(paymentIntentId);
    return intent.status === "canceled";
  }
}

/** A 4xx answer from Stripe (the request was refused), not an outage or a network error. */
function isStripeRefusal(error: unknown): boolean {
  const status = (error as { statusCode?: number }).statusCode;
  return typeof status === "number" && status >= 400 && status < 500 && status !== 429;
}
