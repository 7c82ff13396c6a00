import { and, eq, inArray, sql } from "drizzle-orm";
import { recordAudit } from "../admin/audit.server";
import type { Db } from "../db/client.server";
import { commissionLedger, payoutRuns, payouts } from "../db/schema";
import { sendPayoutSent } from "../mail/send-payout-sent.server";

export type ClosePayoutRunResult = { ok: true; already: boolean } | { ok: false; code: "not_found" | "not_open" };

/**
 * Ends an open run: 'paid' once the operator has seen the payment provider pay it (its entries and
 * payouts are paid, with the time), or 'cancelled' (its entries are released for the next run).
 * Asking again for the state a run is already in answers ok; the other end is refused. A paid run
 * emails each affiliate paid, and the operator's audit entry commits with the run's new state.
 */
export async function closePayoutRun(
  db: Db,
  {
    runId,
    outcome,
    operator,
    now = new Date(),
  }: { runId: number; outcome: "paid" | "cancelled"; operator: { id: string; email: string }; now?: Date },
): Promise<ClosePayoutRunResult> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('affiliate-payout-run'))`);
    const [run] = await tx.select().from(payoutRuns).where(eq(payoutRuns.id, runId)).for("update");
    if (!run) return { ok: false, code: "not_found" } as const;
    if (run.status === outcome) return { ok: true, already: true } as const;
    if (run.status !== "open") return { ok: false, code: "not_open" } as const;
    const runPayouts = await tx.select().from(payouts).where(eq(payouts.runId, runId));
    const ids = runPayouts.map((p) => p.id);
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
    await tx.update(payoutRuns).set({ status: outcome, closedBy: operator.id, closedAt: now }).where(eq(payoutRuns.id, runId));
    if (outcome === "paid") {
      for (const p of runPayouts.filter((p) => p.status === "open"))
        await sendPayoutSent(tx as unknown as Db, {
          affiliateUserId: p.affiliateUserId,
          payoutId: p.id,
          amount: p.amount,
          sentAt: now,
        });
    }
    await recordAudit(tx as unknown as Db, {
      operator,
      action: outcome === "paid" ? "payout-run.confirm" : "payout-run.cancel",
      subjectType: "payout-run",
      subjectId: String(runId),
      before: { status: run.status },
      after: { status: outcome, payouts: ids.length },
    });
    return { ok: true, already: false } as const;
  });
}
