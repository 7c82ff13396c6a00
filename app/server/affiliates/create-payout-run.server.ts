import { eq, inArray, sql } from "drizzle-orm";
import { decidePayout } from "~/catalogue/payouts";
import { recordAudit } from "../admin/audit.server";
import type { Db } from "../db/client.server";
import { commissionLedger, payoutRuns, payouts } from "../db/schema";
import { env } from "../env.server";
import { payableEntries, payablePerAffiliate } from "./payout-entries.server";

export type CreatePayoutRunResult =
  | { ok: true; runId: number; created: boolean }
  | { ok: false; code: "open_run"; runId: number }
  | { ok: false; code: "nothing_to_pay" };

/**
 * Locks every payable balance at or above the minimum into a new run, in one transaction: the run,
 * one payout per affiliate and the entries' payout id together or not at all. Runs are made one at a
 * time (a transaction-scoped lock), at most one is open, and the form's key makes a second submission
 * answer with the run the first one made. The operator's audit entry commits with the run.
 */
export async function createPayoutRun(
  db: Db,
  { key, operator, now = new Date() }: { key: string; operator: { id: string; email: string }; now?: Date },
): Promise<CreatePayoutRunResult> {
  const minimum = env().AFFILIATE_PAYOUT_MINIMUM_CENTS;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('affiliate-payout-run'))`);
    const [same] = await tx.select({ id: payoutRuns.id }).from(payoutRuns).where(eq(payoutRuns.key, key));
    if (same) return { ok: true, runId: same.id, created: false } as const;
    const [open] = await tx.select({ id: payoutRuns.id }).from(payoutRuns).where(eq(payoutRuns.status, "open"));
    if (open) return { ok: false, code: "open_run", runId: open.id } as const;

    const paid = payablePerAffiliate(await payableEntries(tx, now, { lock: true })).filter(
      (a) => decidePayout(a, minimum) === "pay",
    );
    if (paid.length === 0) return { ok: false, code: "nothing_to_pay" } as const;
    const [run] = await tx
      .insert(payoutRuns)
      .values({
        key,
        status: "open",
        totalAmount: paid.reduce((sum, a) => sum + a.payable, 0),
        createdBy: operator.id,
        createdAt: now,
      })
      .returning({ id: payoutRuns.id });
    for (const a of paid) {
      const [payout] = await tx
        .insert(payouts)
        .values({ runId: run!.id, affiliateUserId: a.affiliateUserId, email: a.payoutEmail!, amount: a.payable, createdAt: now })
        .returning({ id: payouts.id });
      await tx.update(commissionLedger).set({ payoutId: payout!.id }).where(inArray(commissionLedger.id, a.entryIds));
    }
    await recordAudit(tx as unknown as Db, {
      operator,
      action: "payout-run.create",
      subjectType: "payout-run",
      subjectId: String(run!.id),
      before: null,
      after: { status: "open", payouts: paid.length, totalAmount: paid.reduce((sum, a) => sum + a.payable, 0) },
    });
    return { ok: true, runId: run!.id, created: true } as const;
  });
}
