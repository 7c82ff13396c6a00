/**
 * Why a checkout was not started: the stable code every refusal of POST /api/checkout and of the
 * pages' checkout forms carries beside its HTTP status and an English message. Pages decide what to
 * show and do on the code alone (app/components/checkout/messages.ts); the message is for people
 * reading the API, and is shown as it is only where it carries a detail the code cannot (the wait of
 * a rate limit, the reason a form field was refused).
 */
export const CHECKOUT_REFUSAL_CODES = [
  /** 400 or 413: the body is not a checkout request (bad JSON, too large, a field refused: see `field`). */
  "invalid_input",
  /** 400: the app, package, plan, tier or add-on is not in the catalogue or not on sale. */
  "unknown_item",
  /** 401: no session (the API; a page's form redirects to sign-in instead). */
  "not_signed_in",
  /** 405: the checkout endpoint only takes POST. */
  "method_not_allowed",
  /** 409: the account holds this already, or the open checkout of this purchase has been paid. */
  "already_owned",
  /** 409: a scaling tier whose contacts the account's billing plan already includes. */
  "included_in_plan",
  /** 429: too many checkouts for the account or the address; the message says how long to wait. */
  "rate_limited",
  /** 503: the payment provider could not open or resume the checkout. */
  "provider_unavailable",
] as const;

export type CheckoutRefusalCode = (typeof CHECKOUT_REFUSAL_CODES)[number];

/** A refused checkout as the server sends it (with its HTTP status). */
export interface CheckoutRefusal {
  code: CheckoutRefusalCode;
  message: string;
  /** The request field that was refused, as a dotted path ("email", "addonIds.0"). */
  field?: string;
}

export function isCheckoutRefusalCode(value: unknown): value is CheckoutRefusalCode {
  return typeof value === "string" && (CHECKOUT_REFUSAL_CODES as readonly string[]).includes(value);
}
