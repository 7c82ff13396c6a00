import { and, eq, gt, inArray, isNull, lte, ne, or, sql } from "drizzle-orm";
import type { TrialPlanId } from "~/catalogue/plans";
import { isTrialPlanId, trialPlan } from "~/catalogue/trial";
import type { Db } from "../db/client.server";
import { orders, trialAccess } from "../db/schema";
import { log } from "../log.server";
import { hasActiveSubscription } from "../trial/trial.server";
import { queueUserEmailInTx } from "./queue-email.server";

/** How long before a trial's end (or a held payment's capture) its reminder goes out. */
const REMINDER_LEAD_MS = 24 * 60 * 60_000;

/**
 * The emails due a day ahead, found by a periodic sweep (queue.server.ts, every 15 minutes and at
 * start): the dashboard trial ending tomorrow (optional; not to an account that already pays), a
 * subscription's free trial ending tomorrow and a one-time build's held payment captured tomorrow
 * (both required: money is about to move). Each is keyed
 * by its trial or order, so overlapping sweeps, two instances and restarts write it once; a window
 * missed entirely while every process was down is not sent late, as it would arrive after the fact.
 */
export async function sendDueReminders(
  db: Db,
  now = new Date(),
): Promise<{ trialEnding: number; subscriptionTrialEnding: number; chargeComing: number }> {
  const horizon = new Date(now.getTime() + REMINDER_LEAD_MS);
  let trialEnding = 0;
  let subscriptionTrialEnding = 0;
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
  // A subscription's trial starts when its checkout is paid (the provider's trial_period_days) and its
  // first charge comes trial_days later. The distributor program's welcome already tells its trial
  // week; a subscription that ended or stopped paying is not charged, so not reminded.
  const trialEnd = sql<Date>`${orders.paidAt} + ${orders.trialDays} * interval '1 day'`;
  const subscriptions = await db
    .select({ order: orders, endsAt: trialEnd.mapWith(orders.paidAt) })
    .from(orders)
    .where(
      and(
        eq(orders.status, "paid"),
        eq(orders.isSubscription, true),
        gt(orders.trialDays, 0),
        ne(orders.kind, "distributor"),
        or(isNull(orders.subscriptionStatus), inArray(orders.subscriptionStatus, ["active", "trialing"])),
        sql`${trialEnd} > ${now}`,
        sql`${trialEnd} <= ${horizon}`,
      ),
    )
    .limit(500);
  for (const { order, endsAt } of subscriptions) {
    const queued = await db.transaction((tx) =>
      queueUserEmailInTx(tx as unknown as Db, order.userId, {
        kind: "subscriptionTrialEnding",
        props: { itemName: order.itemName, amount: order.amount, currency: order.currency, endsAt },
        subjectId: `order:${order.id}`,
      }),
    );
    if (queued) subscriptionTrialEnding++;
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
  if (trialEnding + subscriptionTrialEnding + chargeComing > 0)
    log.info("reminder emails queued", { trialEnding, subscriptionTrialEnding, chargeComing });
  return { trialEnding, subscriptionTrialEnding, chargeComing };
}
