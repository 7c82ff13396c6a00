import { and, asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { preparedPerHandle } from "../db/prepared.server";
import { orders } from "../db/schema";
import { chargedAtTrialEnd } from "./due-today.server";

export interface RunningTrial {
  orderId: string;
  itemName: string;
  kind: string;
  /** Cents charged when the trial ends. */
  amount: number;
  /** ISO time of the charge. */
  chargeAt: string;
  /** False once the charge is being taken: too late to cancel. */
  cancelable: boolean;
}

const runningTrialsQuery = preparedPerHandle((db) =>
  db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.userId, sql.placeholder("userId")),
        isNotNull(orders.captureAt),
        inArray(orders.status, ["authorized", "capturing"]),
      ),
    )
    .orderBy(asc(orders.captureAt)),
);

/** The account's one-time builds in their free trial (authorised, not yet charged), soonest charge first. */
export async function listRunningTrials(db: Db, userId: string): Promise<RunningTrial[]> {
  const rows = await runningTrialsQuery(db).execute({ userId });
  const now = Date.now();
  return rows.map((o) => ({
    orderId: o.id,
    itemName: o.itemName,
    kind: o.kind,
    amount: chargedAtTrialEnd(o),
    chargeAt: o.captureAt!.toISOString(),
    cancelable: o.status === "authorized" && o.captureAt!.getTime() > now,
  }));
}

/** An order's status as billing history shows it: a canceled trial is not an ordinary canceled checkout. */
export function historyStatus(order: { status: string; captureAt: Date | null }): string {
  if (order.captureAt && order.status === "canceled") return "trial_canceled";
  return order.status;
}
