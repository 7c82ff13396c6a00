import { asc, desc, eq } from "drizzle-orm";
import { payoutCsv } from "~/catalogue/payouts";
import type { Db } from "../db/client.server";
import { affiliates, payoutRuns, payouts } from "../db/schema";

const RUNS_SHOWN = 20;

/** The newest runs with their payouts, for /admin/payouts. */
export async function listPayoutRuns(db: Db) {
  const runs = await db.select().from(payoutRuns).orderBy(desc(payoutRuns.id)).limit(RUNS_SHOWN);
  const lines = runs.length
    ? await db
        .select({
          id: payouts.id,
          runId: payouts.runId,
          username: affiliates.username,
          email: payouts.email,
          amount: payouts.amount,
          status: payouts.status,
        })
        .from(payouts)
        .innerJoin(affiliates, eq(affiliates.userId, payouts.affiliateUserId))
        .orderBy(asc(payouts.id))
    : [];
  return runs.map((r) => ({
    id: r.id,
    status: r.status,
    currency: r.currency,
    totalAmount: r.totalAmount,
    createdAt: r.createdAt.toISOString(),
    closedAt: r.closedAt?.toISOString() ?? null,
    payouts: lines.filter((l) => l.runId === r.id),
  }));
}

/** The run's payment file (PayPal Payouts bulk format), or null for an unknown run. */
export async function payoutRunCsv(db: Db, runId: number): Promise<string | null> {
  const [run] = await db.select().from(payoutRuns).where(eq(payoutRuns.id, runId));
  if (!run) return null;
  const lines = await db
    .select({ payoutId: payouts.id, email: payouts.email, amount: payouts.amount })
    .from(payouts)
    .where(eq(payouts.runId, runId))
    .orderBy(asc(payouts.id));
  return payoutCsv(run.id, lines, run.currency);
}
