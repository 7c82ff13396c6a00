import { and, eq, gt, lte } from "drizzle-orm";
import type { TrialPlanId } from "~/catalogue/plans";
import { isTrialPlanId, trialPlan } from "~/catalogue/trial";
import type { Db } from "../db/client.server";
import { orders, trialAccess } from "../db/schema";
import { log } from "../log.server";
import { hasActiveSubscription } from "../trial/trial.server";
import { queueUserEmailInTx } from "./queue-email.server";

/** How long before a trial's end (or a held payment's capture) its reminder goes out. */
export const REMINDER_LEAD_MS = 24 * 60 * 60_000;

/**
 * The emails due a day ahead, found by a periodic sweep (queue.server.ts, every 15 minutes and at
 * start): the dashboard trial ending tomorrow (optional; not to an account that already pays), and a
 * one-time build's held payment captured tomorrow (required: money is about to move). Each is keyed
 * by its trial or order, so overlapping sweeps, two instances and restarts write it once; a window
 * missed entirely while every process was down is not sent late, as it would arrive after the fact.
 */
export async function sendDueReminders(db: Db, now = new Date()): Promise<{ trialEnding: number; chargeComing: number }> {
  const horizon = new Date(now.getTime() + REMINDER_LEAD_MS);
  let trialEnding = 0;
  let chargeComing = 0;
  const trials = await db
    .select({ userId: trialAccess.userId, endsAt: trialAccess.trialEndsAt, plan: trialAccess.selectedPlan })
    .from(trialAccess)
    .where(and(eq(trialAccess.trialStarted, true), gt(trialAccess.trialEndsAt, now), lte(trialAccess.trialEndsAt, horizon)))
    .limit(500);
  for (const trial of trials) {
    if (!trial.endsAt || (await hasActiveSubscription(db, trial.userId, now))) continue;
    const endsAt = trial.endsAt;
    const queued = await db.transaction((tx) =>
      queueUserEmailInTx(tx as unknown as Db, trial.userId, {
        kind: "trialEnding",
        props: {
          itemName: isTrialPlanId(trial.plan ?? "") ? `the ${trialPlan(trial.plan as TrialPlanId).name} plan` : "the dashboard",
          endsAt,
        },
        subjectId: "dashboard-trial",
      }),
    );
    if (queued) trialEnding++;
  }
  const held = await db
    .select()
    .from(orders)
    .where(and(eq(orders.status, "authorized"), gt(orders.captureAt, now), lte(orders.captureAt, horizon)))
    .limit(500);
  for (const order of held) {
    const queued = await db.transaction((tx) =>
      queueUserEmailInTx(tx as unknown as Db, order.userId, {
        kind: "chargeComing",
        props: { itemName: order.itemName, amount: order.amount, currency: order.currency, captureAt: order.captureAt! },
        subjectId: order.id,
      }),
    );
    if (queued) chargeComing++;
  }
  if (trialEnding + chargeComing > 0) log.info("reminder emails queued", { trialEnding, chargeComing });
  return { trialEnding, chargeComing };
}
