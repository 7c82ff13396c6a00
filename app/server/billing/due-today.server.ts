import { type OrderRow } from "../db/schema";

type Priced = Pick<OrderRow, "amount" | "setupFee" | "isSubscription" | "trialDays">;

/**
 * Whether the order is a one-time build with its free trial: the card is authorised at checkout and
 * the full amount captured when the trial ends, unless the customer cancels first
 * (docs/decisions/0045-trial-then-capture.md).
 */
export function capturesAfterTrial(order: Priced): boolean {
  return !order.isSubscription && order.trialDays > 0;
}

/**
 * What the first payment takes today: a subscription with a trial charges only its setup fee now and
 * the monthly amount when the trial ends (as Stripe bills it); a one-time build with its trial
 * nothing (its amount is authorised, captured when the trial ends); anything else amount + setup fee.
 */
export function dueToday(order: Priced): number {
  if (capturesAfterTrial(order)) return 0;
  return order.isSubscription && order.trialDays > 0 ? order.setupFee : order.amount + order.setupFee;
}

/** What the card is charged when a one-time build's trial ends (the authorised amount). */
export function chargedAtTrialEnd(order: Priced): number {
  return order.amount + order.setupFee;
}

/** When a trial that starts at `from` ends and its authorised payment is captured. */
export function trialCaptureAt(order: Pick<OrderRow, "trialDays">, from = new Date()): Date {
  return new Date(from.getTime() + order.trialDays * 86_400_000);
}
