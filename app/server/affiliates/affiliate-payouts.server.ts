import { desc, eq, ne, and } from "drizzle-orm";
import { balancesByState, payableAt, payoutEmailProblem } from "~/catalogue/payouts";
import type { Db } from "../db/client.server";
import { affiliates, commissionLedger, payouts } from "../db/schema";
import { env } from "../env.server";

/** The affiliate's own balances by state, the next date a pending commission becomes payable, and payouts. */
export async function getAffiliatePayouts(db: Db, affiliateUserId: string, now = new Date()) {
  const holdDays = env().AFFILIATE_HOLD_DAYS;
  const entries = await db
    .select({
      amount: commissionLedger.amount,
      status: commissionLedger.status,
      holdFrom: commissionLedger.holdFrom,
      payoutId: commissionLedger.payoutId,
    })
    .from(commissionLedger)
    .where(eq(commissionLedger.affiliateUserId, affiliateUserId));
  const upcoming = entries
    .filter((e) => e.status === "pending" && e.payoutId === null)
    .map((e) => payableAt(e.holdFrom, holdDays))
    .filter((d): d is Date => d !== null && d.getTime() > now.getTime())
    .sort((a, b) => a.getTime() - b.getTime());
  const list = await db
    .select({
      id: payouts.id,
      amount: payouts.amount,
      status: payouts.status,
      email: payouts.email,
      createdAt: payouts.createdAt,
      paidAt: payouts.paidAt,
    })
    .from(payouts)
    .where(and(eq(payouts.affiliateUserId, affiliateUserId), ne(payouts.status, "cancelled")))
    .orderBy(desc(payouts.id));
  const [row] = await db
    .select({ payoutEmail: affiliates.payoutEmail })
    .from(affiliates)
    .where(eq(affiliates.userId, affiliateUserId));
  return {
    balances: balancesByState(entries, now, holdDays),
    nextPayableAt: upcoming[0]?.toISOString() ?? null,
    holdDays,
    minimum: env().AFFILIATE_PAYOUT_MINIMUM_CENTS,
    payoutEmail: row?.payoutEmail ?? null,
    payouts: list.map((p) => ({
      id: p.id,
      amount: p.amount,
      status: p.status as "open" | "paid",
      email: p.email,
      createdAt: p.createdAt.toISOString(),
      paidAt: p.paidAt?.toISOString() ?? null,
    })),
  };
}

/** Saves the affiliate's own payout email; the field's message when it is not one. */
export async function setPayoutEmail(db: Db, affiliateUserId: string, value: string): Promise<string | null> {
  const email = value.trim();
  const problem = payoutEmailProblem(email);
  if (problem) return problem;
  await db.update(affiliates).set({ payoutEmail: email }).where(eq(affiliates.userId, affiliateUserId));
  return null;
}
