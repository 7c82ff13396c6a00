import { and, desc, eq, gt, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Stripe } from "stripe";
import { type Db, queryRows } from "../../db/client.server";
import { orders, paymentEvents, userSubscriptions } from "../../db/schema";
import { errorMessage, log } from "../../log.server";

/**
 * A new plan or tier replaces the account's previous one (applySubscriptionEntitlement marks its row
 * 'replaced'), but with Stripe the old subscription keeps billing until it is cancelled there. This
 * cancels every replaced Stripe subscription (prorated) and marks its row 'canceled'. It runs after
 * the fulfilling transaction has committed (a Stripe call must not hold a transaction open); a
 * failure is logged and retried by the next run (every applied event and every re-sync), and
 * Stripe's own `customer.subscription.deleted` event converges the row too.
 */
export async function cancelReplacedSubscriptions(db: Db, stripe: Stripe, limit = 20): Promise<number> {
  const rows = await db
    .select({ id: userSubscriptions.id, subscriptionId: userSubscriptions.providerSubscriptionId })
    .from(userSubscriptions)
    .where(and(eq(userSubscriptions.provider, "stripe"), eq(userSubscriptions.status, "replaced")))
    .limit(limit);
  let canceled = 0;
  for (const row of rows) {
    if (!row.subscriptionId) continue;
    try {
      await stripe.subscriptions.cancel(row.subscriptionId, { prorate: true });
    } catch (error) {
      // Already gone at Stripe is the state we want; anything else is retried next time.
      const code = (error as { code?: string }).code;
      if (code !== "resource_missing") {
        log.warn("could not cancel a replaced Stripe subscription", {
          subscriptionId: row.subscriptionId,
          error: errorMessage(error),
        });
        continue;
      }
    }
    await db
      .update(userSubscriptions)
      .set({ status: "canceled", updatedAt: sql`now()` })
      .where(and(eq(userSubscriptions.id, row.id), eq(userSubscriptions.status, "replaced")));
    canceled += 1;
  }
  return canceled;
}

/**
 * fulfilOrderInTx records a Stripe add-on order whose add-ons the account already owned through
 * another order as paid (the money was taken) with `details.duplicateOf`, and grants nothing. This
 * cancels its subscription at Stripe (at once, no proration: it never granted anything) and ends the
 * order, after the fulfilling transaction has committed. The first payment is not refunded here: it
 * is logged for the operator to refund in the Stripe dashboard, and that refund's charge.refunded
 * event records it (docs/decisions/0009). Retried by the next run, like the other follow-ups.
 */
export async function cancelDuplicateSubscriptions(db: Db, stripe: Stripe, limit = 20): Promise<number> {
  const rows = await db
    .select({ id: orders.id, subscriptionId: orders.providerSubscriptionId, details: orders.details, userId: orders.userId })
    .from(orders)
    .where(
      and(
        eq(orders.provider, "stripe"),
        eq(orders.status, "paid"),
        isNotNull(orders.providerSubscriptionId),
        sql`${orders.details} ? 'duplicateOf'`,
      ),
    )
    .limit(limit);
  let canceled = 0;
  for (const row of rows) {
    try {
      await stripe.subscriptions.cancel(row.subscriptionId!);
    } catch (error) {
      if ((error as { code?: string }).code !== "resource_missing") {
        log.warn("could not cancel a duplicate Stripe subscription", {
          orderId: row.id,
          subscriptionId: row.subscriptionId,
          error: errorMessage(error),
        });
        continue;
      }
    }
    await db
      .update(orders)
      .set({ status: "canceled", subscriptionStatus: "canceled" })
      .where(and(eq(orders.id, row.id), eq(orders.status, "paid")));
    log.error("duplicate add-on subscription cancelled; refund its first payment in Stripe", {
      orderId: row.id,
      userId: row.userId,
      subscriptionId: row.subscriptionId,
      duplicateOf: row.details.duplicateOf,
    });
    canceled += 1;
  }
  return canceled;
}

/** Longer than any trial of the catalogue (the distributor's 7 days): by then Stripe has ended it itself. */
const DROPPED_TRIAL_WINDOW_DAYS = 31;

/**
 * fulfilOrderInTx records a second trial of the same item and account without it (trial_days 0),
 * but the Stripe subscription its session created is still trialing: this ends that trial now, so
 * Stripe charges the first month at once. It runs after the fulfilling transaction has committed,
 * as cancelReplacedSubscriptions does, and needs no marker of its own: such an order is a paid
 * Stripe subscription without trial days whose payments do not yet cover its first month (the
 * checkout charged the trial's amount, the setup fee or nothing), paid within the last month and
 * neither past due nor canceled. Its subscription is read first and only a 'trialing' one
 * is changed, so a trial already ended (by an earlier run whose first invoice has not been paid yet,
 * or by Stripe) is not ended twice. A failure is logged and retried by the next run (every applied
 * event and every re-sync); if none comes, Stripe ends the trial on its own at its end.
 */
export async function endDroppedTrials(db: Db, stripe: Stripe, limit = 20): Promise<number> {
  const paidSoFar = sql`coalesce((select sum(${paymentEvents.amount}) from ${paymentEvents} where ${paymentEvents.orderId} = ${orders.id} and ${paymentEvents.kind} = 'payment'), 0)`;
  const rows = await db
    .select({ id: orders.id, subscriptionId: orders.providerSubscriptionId })
    .from(orders)
    .where(
      and(
        eq(orders.provider, "stripe"),
        eq(orders.status, "paid"),
        eq(orders.isSubscription, true),
        eq(orders.trialDays, 0),
        isNotNull(orders.providerSubscriptionId),
        gt(orders.paidAt, sql`now() - ${sql.raw(`interval '${DROPPED_TRIAL_WINDOW_DAYS} days'`)}`),
        or(isNull(orders.subscriptionStatus), eq(orders.subscriptionStatus, "active")),
        sql`${paidSoFar} < ${orders.amount} + ${orders.setupFee}`,
      ),
    )
    // The newest are the likeliest to be still trialing.
    .orderBy(desc(orders.paidAt))
    .limit(limit);
  let ended = 0;
  for (const row of rows) {
    if (!row.subscriptionId) continue;
    try {
      const subscription = await stripe.subscriptions.retrieve(row.subscriptionId);
      if (subscription.status !== "trialing") continue;
      await stripe.subscriptions.update(row.subscriptionId, { trial_end: "now" });
      log.info("ended a repeated Stripe trial", { orderId: row.id, subscriptionId: row.subscriptionId });
      ended += 1;
    } catch (error) {
      // Gone at Stripe: its deleted event cancels the order. Anything else is retried next time.
      if ((error as { code?: string }).code === "resource_missing") continue;
      log.warn("could not end a repeated Stripe trial", {
        orderId: row.id,
        subscriptionId: row.subscriptionId,
        error: errorMessage(error),
      });
    }
  }
  return ended;
}

/**
 * The Stripe calls a fulfilment implies, after its commit: the replaced plan cancelled, a repeated
 * trial ended, a duplicate add-on subscription cancelled. Never throws: the order is already recorded, and what failed is retried by the next
 * applied event, re-sync or sweep.
 */
export async function settleAfterCommit(db: Db, stripe: Stripe): Promise<{ canceled: number; ended: number }> {
  let canceled = 0;
  let ended = 0;
  try {
    canceled = await cancelReplacedSubscriptions(db, stripe);
  } catch (error) {
    log.warn("replaced subscriptions not cancelled yet", { error: errorMessage(error) });
  }
  try {
    ended = await endDroppedTrials(db, stripe);
  } catch (error) {
    log.warn("repeated trials not ended yet", { error: errorMessage(error) });
  }
  try {
    canceled += await cancelDuplicateSubscriptions(db, stripe);
  } catch (error) {
    log.warn("duplicate add-on subscriptions not cancelled yet", { error: errorMessage(error) });
  }
  return { canceled, ended };
}

/**
 * The job sweeper's retry of settleAfterCommit, so a cancel or trial end that failed is not left
 * waiting for an event that may never come (a repeated trial would otherwise run to its end). At
 * most one process runs it per `everyMs`: worker processes fire their sweeps together, and two
 * runs would each ask Stripe to cancel or end the same subscription.
 */
export async function sweepStripeFollowUps(
  db: Db,
  stripe: Stripe,
  everyMs: number,
): Promise<{ canceled: number; ended: number } | null> {
  const claimed = await queryRows<{ key: string }>(
    db,
    sql`insert into app_settings (key, value) values ('stripe_follow_up_sweep', now()::text)
        on conflict (key) do update set value = excluded.value
        where app_settings.value::timestamptz <= now() - make_interval(secs => ${Math.max(0, everyMs - 1000) / 1000})
        returning key`,
  );
  if (claimed.length === 0) return null;
  return settleAfterCommit(db, stripe);
}
