import { type OrderRow } from "../db/schema";

/**
 * What the first payment takes: a subscription with a trial charges only its setup fee now and the
 * monthly amount when the trial ends (as Stripe bills it); anything else charges amount + setup fee.
 */
export function dueToday(order: Pick<OrderRow, "amount" | "setupFee" | "isSubscription" | "trialDays">): number {
  return order.isSubscription && order.trialDays > 0 ? order.setupFee : order.amount + order.setupFee;
}
