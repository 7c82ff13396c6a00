import { and, eq, isNull, ne } from "drizzle-orm";
import { entryState, type AffiliatePayable } from "~/catalogue/payouts";
import type { Db } from "../db/client.server";
import { affiliates, commissionLedger } from "../db/schema";
import { env } from "../env.server";

/**
 * Every affiliate's payable entries (docs/decisions/0067-affiliate-payouts.md): unpaid, in no run,
 * not held, past the hold period (or without one). `lock` takes the rows for update, inside the
 * transaction that locks them into a run.
 */
export async function payableEntries(db: Db, now: Date, { lock = false } = {}) {
  const holdDays = env().AFFILIATE_HOLD_DAYS;
  const query = db
    .select({
      id: commissionLedger.id,
      affiliateUserId: commissionLedger.affiliateUserId,
      amount: commissionLedger.amount,
      status: commissionLedger.status,
      holdFrom: commissionLedger.holdFrom,
      payoutId: commissionLedger.payoutId,
      username: affiliates.username,
      payoutEmail: affiliates.payoutEmail,
    })
    .from(commissionLedger)
    .innerJoin(affiliates, eq(affiliates.userId, commissionLedger.affiliateUserId))
    .where(and(isNull(commissionLedger.payoutId), ne(commissionLedger.status, "paid"), ne(commissionLedger.status, "held")));
  const rows = lock ? await query.for("update", { of: commissionLedger }) : await query;
  return rows.filter((r) => entryState(r, now, holdDays) === "payable");
}

/** The entries above summed per affiliate, with the payout email on file. */
export function payablePerAffiliate(
  rows: Awaited<ReturnType<typeof payableEntries>>,
): (AffiliatePayable & { entryIds: number[] })[] {
  const byAffiliate = new Map<string, AffiliatePayable & { entryIds: number[] }>();
  for (const r of rows) {
    const known = byAffiliate.get(r.affiliateUserId) ?? {
      affiliateUserId: r.affiliateUserId,
      username: r.username,
      payoutEmail: r.payoutEmail,
      payable: 0,
      entryIds: [],
    };
    known.payable += r.amount;
    known.entryIds.push(r.id);
    byAffiliate.set(r.affiliateUserId, known);
  }
  return [...byAffiliate.values()];
}
