import type { Stripe } from "stripe";

export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : value.id;

/** Seconds; on the subscription item since API version 2025-03-31, on the subscription before. */
export function periodEndOf(subscription: Stripe.Subscription | null): number | undefined {
  if (!subscription) return undefined;
  return (
    subscription.items?.data?.[0]?.current_period_end ??
    (subscription as unknown as { current_period_end?: number }).current_period_end
  );
}
