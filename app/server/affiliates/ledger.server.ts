import { eq } from "drizzle-orm";
import { AFFILIATE_COMMISSION_RATE } from "~/catalogue/plans";
import type { Db } from "../db/client.server";
import { commissionLedger, referrals, type PaymentEventRow } from "../db/schema";

/** 30% of a payment in whole cents (rounded half up); a refund reverses 30% of what was refunded. */
export function commissionFor(amount: number): number {
  return Math.round(amount * AFFILIATE_COMMISSION_RATE);
}

/**
 * Consumes one payment event: when its customer was referred, the affiliate's ledger gets one entry
 * (the ledger's unique payment_event_id makes a second call a no-op). Runs inside the fulfilment
 * transaction, so a payment and its commission are committed together or not at all.
 */
export async function accrueCommission(tx: Db, event: PaymentEventRow): Promise<void> {
  const [referral] = await tx.select().from(referrals).where(eq(referrals.referredUserId, event.userId)).limit(1);
  if (!referral || referral.affiliateUserId === event.userId) return;
  const commission = commissionFor(event.amount);
  await tx
    .insert(commissionLedger)
    .values({
      affiliateUserId: referral.affiliateUserId,
      referredUserId: event.userId,
      paymentEventId: event.id,
      kind: event.kind === "refund" ? "reversal" : "commission",
      amount: event.kind === "refund" ? -commission : commission,
    })
    .onConflictDoNothing({ target: commissionLedger.paymentEventId });
}
