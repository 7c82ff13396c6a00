import { and, eq, isNull, sql } from "drizzle-orm";
import { AFFILIATE_COMMISSION_RATE } from "~/catalogue/plans";
import { reversalHoldFrom } from "~/catalogue/payouts";
import type { Db } from "../db/client.server";
import { commissionLedger, paymentEvents, referrals, type PaymentEventRow } from "../db/schema";
import { queueUserEmailInTx } from "../mail/queue-email.server";

/** 30% of a payment in whole cents (rounded half up); a refund reverses 30% of what was refunded. */
export function commissionFor(amount: number): number {
  return Math.round(amount * AFFILIATE_COMMISSION_RATE);
}

/**
 * The reversal of one refund: 30% of everything refunded so far (this refund included), rounded
 * once, minus what earlier refunds already reversed, and never more than the commission earned is
 * still unreversed. Rounding each partial refund on its own would reverse a cent more than was
 * earned when the refunds add up to the payment (9945 + 9955 of 19900: 2984 + 2987 > 5970).
 * Returns a positive number of cents (the ledger entry is its negative).
 */
export function reversalFor(totals: { refunded: number; earned: number; reversed: number }): number {
  const due = Math.min(commissionFor(totals.refunded), totals.earned);
  return Math.max(0, due - totals.reversed);
}

/**
 * Consumes one payment event: when its customer was referred, the affiliate's ledger gets one entry
 * (the ledger's unique payment_event_id makes a second call a no-op). Runs inside the fulfilment
 * transaction, so a payment and its commission are committed together or not at all.
 */
export async function accrueCommission(tx: Db, event: PaymentEventRow): Promise<void> {
  const [referral] = await tx.select().from(referrals).where(eq(referrals.referredUserId, event.userId)).limit(1);
  if (!referral || referral.affiliateUserId === event.userId) return;
  const reversal = event.kind === "refund" ? await refundReversal(tx, event, referral.affiliateUserId) : null;
  const [entry] = await tx
    .insert(commissionLedger)
    .values({
      affiliateUserId: referral.affiliateUserId,
      referredUserId: event.userId,
      paymentEventId: event.id,
      kind: reversal ? "reversal" : "commission",
      amount: reversal ? -reversal.amount : commissionFor(event.amount),
      // The hold period runs from the sale (docs/decisions/0067-affiliate-payouts.md); a reversal
      // shares its commission's while that is unpaid, else it is a negative balance at once.
      holdFrom: reversal ? reversal.holdFrom : event.createdAt,
    })
    .onConflictDoNothing({ target: commissionLedger.paymentEventId })
    .returning();
  // The affiliate hears of each commission (optional: their notification settings apply).
  if (entry?.kind === "commission" && entry.amount > 0) {
    await queueUserEmailInTx(tx, entry.affiliateUserId, {
      kind: "commissionEarned",
      props: { amount: entry.amount, currency: event.currency },
      subjectId: entry.id,
    });
  }
}

/**
 * What `refund` reverses (reversalFor), counted over the payment it belongs to: the refund's order
 * (a provider refund names the order it returns money of), or the customer's events without an
 * order when it names none. The refund's own event is already inserted, so it is in `refunded`.
 * Refunds of one payment take turns (a transaction-scoped lock), so two arriving together each
 * see the other's reversal and never round twice.
 */
async function refundReversal(
  tx: Db,
  refund: PaymentEventRow,
  affiliateUserId: string,
): Promise<{ amount: number; holdFrom: Date | null }> {
  const scope = refund.orderId ?? `user:${refund.userId}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`commission-reversal:${scope}`}))`);
  const samePayment = and(
    eq(paymentEvents.userId, refund.userId),
    refund.orderId === null ? isNull(paymentEvents.orderId) : eq(paymentEvents.orderId, refund.orderId),
  );
  const [refunds] = await tx
    .select({ refunded: sql<string>`coalesce(sum(${paymentEvents.amount}), 0)` })
    .from(paymentEvents)
    .where(and(samePayment, eq(paymentEvents.kind, "refund")));
  const [ledger] = await tx
    .select({
      earned: sql<string>`coalesce(sum(${commissionLedger.amount}) filter (where ${commissionLedger.kind} = 'commission'), 0)`,
      reversed: sql<string>`coalesce(-sum(${commissionLedger.amount}) filter (where ${commissionLedger.kind} = 'reversal'), 0)`,
    })
    .from(commissionLedger)
    .innerJoin(paymentEvents, eq(paymentEvents.id, commissionLedger.paymentEventId))
    .where(and(samePayment, eq(commissionLedger.affiliateUserId, affiliateUserId)));
  const commissions = await tx
    .select({ status: commissionLedger.status, payoutId: commissionLedger.payoutId, holdFrom: commissionLedger.holdFrom })
    .from(commissionLedger)
    .innerJoin(paymentEvents, eq(paymentEvents.id, commissionLedger.paymentEventId))
    .where(and(samePayment, eq(commissionLedger.affiliateUserId, affiliateUserId), eq(commissionLedger.kind, "commission")));
  const amount = reversalFor({
    refunded: Number(refunds?.refunded ?? 0),
    earned: Number(ledger?.earned ?? 0),
    reversed: Number(ledger?.reversed ?? 0),
  });
  return { amount, holdFrom: reversalHoldFrom(commissions) };
}
