import type { RefundReason, RefundResult } from "~/lib/refund-codes";
import { formatMoney } from "~/components/affiliates/format";

export const REASON_LABELS: Record<RefundReason, string> = {
  requested_by_customer: "Requested by the customer",
  duplicate: "Duplicate payment",
  fraudulent: "Fraudulent payment",
  other: "Other (say why in the note)",
};

/** What the Refund form says after the server answered. */
export function refundMessage(result: RefundResult): string {
  if (result.ok) {
    const done = `${formatMoney(result.refunded)} refunded.`;
    return result.ended ? `${done} The order is wholly refunded and what it granted has ended.` : done;
  }
  switch (result.code) {
    case "invalid_input":
      return "Enter an amount of at least $0.01 and choose a reason.";
    case "note_required":
      return "Say in the note why this refund is made.";
    case "confirm_required":
      return "Tick the box to confirm the refund: nothing was refunded.";
    case "not_found":
      return "This order no longer exists. Reload the page.";
    case "not_refundable":
      return "Nothing is left to refund on this order. Reload the page to see its current state.";
    case "amount_too_high":
      return "That is more than is left to refund on this order. Reload the page to see what is left.";
    case "partial":
      return `Only ${formatMoney(result.refunded ?? 0)} could be refunded: Stripe has less left on this order's payments. Check the payments in the Stripe dashboard.`;
    case "rate_limited":
      return `Too many refunds in a short time. Try again in ${Math.max(1, Math.ceil((result.retryAfterSeconds ?? 60) / 60))} minute(s).`;
    case "provider_failed":
      return result.refunded
        ? `Stripe failed after refunding ${formatMoney(result.refunded)}; nothing more was refunded. Try the rest again in a moment.`
        : "Stripe could not make the refund; nothing was refunded. Try again in a moment.";
  }
}
