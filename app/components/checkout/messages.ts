/** Texts the checkout pages show when starting a checkout fails (docs/decisions/0009). */
export const PAYMENT_UNAVAILABLE = "Payment system is currently unavailable. Please try again later.";
export const PACKAGE_CHECKOUT_FAILED = "We couldn't start your checkout. Please try again.";
/** Spec section 8, distributor payment. */
export const DISTRIBUTOR_PAYMENT_FAILED = "Failed to initiate payment process. Please try again.";

/** The sign-in page, coming back to `path` (a same-site path with its query). */
export function signInHref(path: string): string {
  return `/auth?next=${encodeURIComponent(path)}`;
}

/** The inline message for a failed package checkout (null: nothing to show). */
export function packageCheckoutMessage(failure: { status: number; error?: string } | null | undefined): string | null {
  if (!failure) return null;
  if (failure.status === 429) return rateLimitedCheckoutMessage(failure, PACKAGE_CHECKOUT_FAILED);
  return failure.status === 503 ? PAYMENT_UNAVAILABLE : PACKAGE_CHECKOUT_FAILED;
}

/** Too many checkouts (429): the server's message, which says how long to wait. */
export function rateLimitedCheckoutMessage(failure: { error?: string }, fallback: string): string {
  return failure.error || fallback;
}
