import type { Db } from "../db/client.server";
import { type QueuedEmail, queueUserEmailInTx } from "./queue-email.server";

export interface PayoutSent {
  /** The affiliate paid. */
  affiliateUserId: string;
  payoutId: string | number;
  /** Cents. */
  amount: number;
  currency?: string;
  sentAt: Date;
  /** The transfer's reference, when the payment method gives one. */
  reference?: string | null;
}

/**
 * Emails an affiliate that their payout was sent, written through `tx`: call it in the transaction
 * that marks the payout sent. Required (money paid to them). Null when already written for this payout.
 */
export function sendPayoutSent(tx: Db, payout: PayoutSent): Promise<QueuedEmail> {
  return queueUserEmailInTx(tx, payout.affiliateUserId, {
    kind: "payoutSent",
    props: { amount: payout.amount, currency: payout.currency, sentAt: payout.sentAt, reference: payout.reference ?? null },
    subjectId: payout.payoutId,
  });
}
