/**
 * Refunds from /admin: the reasons an operator picks, and the code every refused or failed refund
 * answers with. The page shows a text per code (app/components/admin/refund-messages.ts); the server
 * never sends text the page would have to match.
 */
export const REFUND_REASONS = ["requested_by_customer", "duplicate", "fraudulent", "other"] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

const REFUND_CODES = [
  /** 400: the form is not a refund request (amount not a positive number of cents, no reason, …). */
  "invalid_input",
  /** 400: the reason is 'other' and no note says what it is. */
  "note_required",
  /** 400: the form without JavaScript was sent without its confirmation box ticked. */
  "confirm_required",
  /** 404: no such order. */
  "not_found",
  /** 409: the order has nothing left to refund (never paid, already wholly refunded). */
  "not_refundable",
  /** 409: more than what is left unrefunded on the order. */
  "amount_too_high",
  /** 409: the provider refunded less than asked (it has less left on the order's payments than we recorded). */
  "partial",
  /** 429: too many refunds by this operator or address; `retryAfterSeconds` says how long to wait. */
  "rate_limited",
  /** 502: the payment provider refused or could not be reached; nothing more was refunded. */
  "provider_failed",
] as const;
export type RefundCode = (typeof REFUND_CODES)[number];

/** What the refund action answers. Amounts are cents. */
export type RefundResult =
  | { intent: "refund-order"; ok: true; orderId: string; refunded: number; ended: boolean }
  | { intent: "refund-order"; ok: false; orderId?: string; code: RefundCode; refunded?: number; retryAfterSeconds?: number };

/**
 * Dollars as an operator types them ("12", "12.5", "$1,234.50") in cents, or null when it is not an
 * amount of at most two decimals. The server receives cents and checks them again.
 */
export function dollarsToCents(typed: string): number | null {
  const plain = typed.trim().replace(/^\$/, "").replace(/,/g, "");
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(plain);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}
