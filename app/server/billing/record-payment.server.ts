import { accrueCommission } from "../affiliates/ledger.server";
import type { Db } from "../db/client.server";
import { paymentEvents } from "../db/schema";
import { emailPaymentEvent } from "../mail/event-emails.server";

export interface MoneyMovement {
  userId: string;
  orderId: string | null;
  /** Cents, positive for both kinds. */
  amount: number;
  provider: string;
  /** Unique per payment or refund: a second call with it changes nothing. */
  providerRef: string;
  currency?: string;
}

/**
 * Writes one payment event once (unique provider reference) and lets the affiliate ledger consume
 * it in the same transaction: a payment accrues the referrer's commission, a refund reverses it.
 * Returns false when this event was already recorded.
 */
async function recordPaymentEvent(
  tx: Db,
  kind: "payment" | "refund",
  movement: MoneyMovement,
  options: { capturedBuild?: boolean } = {},
): Promise<boolean> {
  const [event] = await tx
    .insert(paymentEvents)
    .values({ ...movement, kind, currency: movement.currency ?? "usd" })
    .onConflictDoNothing({ target: paymentEvents.providerRef })
    .returning();
  if (!event) return false;
  await accrueCommission(tx, event);
  // The receipt (or refund notice) is written with the event, so it exists exactly when it does.
  await emailPaymentEvent(tx, event, options);
  return true;
}

/**
 * Money received, once, with the referrer's commission and the receipt email. `capturedBuild`: a
 * one-time build's trial capture, whose email says the build starts (it is the receipt too).
 */
export const recordPayment = (tx: Db, payment: MoneyMovement, options: { capturedBuild?: boolean } = {}) =>
  recordPaymentEvent(tx, "payment", payment, options);

/** Money returned, once, reversing the commission it carried, with the refund email. */
export const recordRefund = (tx: Db, refund: MoneyMovement) => recordPaymentEvent(tx, "refund", refund);
