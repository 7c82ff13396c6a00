import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { commissionLedger, payoutRuns, payouts } from "../db/schema";

export type ClosePayoutRunResult = { ok: true; already: boolean } | { ok: false; code: "not_found" | "not_open" };

/**
 * Ends an open run: 'paid' once the operator has seen the payment provider pay it (its entries and
 * payouts are paid, with the time), or 'cancelled' (its entries are released for the next run).
 * Asking again for the state a run is already in answers ok; the other end is refused.
 */
export async function closePayoutRun(
  db: Db,
  {
    runId,
    outcome,
    operatorId,
    now = new Date(),
  }: { runId: number; outcome: "paid" | "cancelled"; operatorId: string; now?: Date },
): Promise<ClosePayoutRunResult> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('affiliate-payout-run'))`);
    const [run] = await tx.select().from(payoutRuns).where(eq(payoutRuns.id, runId)).for("update");
    if (!run) return { ok: false, code: "not_found" } as const;
    if (run.status === outcome) return { ok: true, already: true } as const;
    if (run.status !== "open") return { ok: false, code: "not_open" } as const;
    const ids = (await tx.select({ id: payouts.id }).from(payouts).where(eq(payouts.runId, runId))).map((p) => p.id);
    if (ids.length) {
      await tx
        .update(commissionLedger)
        .set(outcome === "paid" ? { status: "paid", paidAt: now } : { payoutId: null })
        .where(inArray(commissionLedger.payoutId, ids));
    }
    await tx
      .update(payouts)
      .set({ status: outcome, paidAt: outcome === "paid" ? now : null })
      .where(and(eq(payouts.runId, runId), eq(payouts.status, "open")));
    await tx.update(payoutRuns).set({ status: outcome, closedBy: operatorId, closedAt: now }).where(eq(payoutRuns.id, runId));
    return { ok: true, already: false } as const;
  });
}
