import { and, desc, eq, gt, isNotNull, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import type { Stripe } from "stripe";
import type { Db } from "../../db/client.server";
import { orders, paymentEvents, userSubscriptions } from "../../db/schema";
import { errorMessage, log } from "../../log.server";

/**
 * The Stripe calls a fulfilment or a refund implies once it has committed (a Stripe call must not
 * hold a transaction open): a replaced plan's subscription cancelled, a repeated trial ended, a
 * duplicate add-on subscription cancelled, the subscription of an order a whole refund or a lost
 * dispute ended cancelled. The committing transaction enqueues one `stripe-follow-up` job per
 * need (enqueueStripeFollowUps in app/server/jobs/queue.server.ts); the job runs one of the
 * functions below, which re-read the row and act only if it still needs it, and throw when Stripe
 * fails so pg-boss retries with backoff. findStripeFollowUps is the periodic safety net: rows that
 * still need a call (written while the queue was not running, or whose job ran out of retries).
 */

type StripeFollowUpKind = "cancel-replaced" | "end-dropped-trial" | "cancel-duplicate" | "cancel-ended";

export interface StripeFollowUp {
  kind: StripeFollowUpKind;
  /** user_subscriptions.id for cancel-replaced, orders.id for the others. */
  id: string;
}

export type FollowUpOutcome = "done" | "not-needed";

/** Stripe's answer for an object that is gone: the state the follow-up wanted, or nothing to do. */
function isMissing(error: unknown): boolean {
  return (error as { code?: string }).code === "resource_missing";
}

/**
 * An idempotency key per attempt: Stripe replays a saved result for a repeated key, errors
 * included, so a retry after a failure must be a new request. What makes a second attempt harmless
 * is the re-read before acting; the key covers the SDK's own network retries within one attempt.
 */
function attemptKey(followUp: StripeFollowUp, attempt: string): string {
  return `follow-up-${followUp.kind}-${followUp.id}-${attempt}`;
}

const replacedStripeSubscription = and(eq(userSubscriptions.provider, "stripe"), eq(userSubscriptions.status, "replaced"));

/**
 * A new plan or tier replaces the account's previous one (applySubscriptionEntitlement marks its row
 * 'replaced'), but with Stripe the old subscription keeps billing until it is cancelled there. This
 * cancels it (prorated) and marks the row 'canceled'. Already gone at Stripe counts as done;
 * Stripe's own `customer.subscription.deleted` event converges the row too.
 */
export async function cancelReplacedSubscription(db: Db, stripe: Stripe, rowId: number, attempt = "0"): Promise<FollowUpOutcome> {
  const [row] = await db
    .select({ subscriptionId: userSubscriptions.providerSubscriptionId })
    .from(userSubscriptions)
    .where(and(eq(userSubscriptions.id, rowId), replacedStripeSubscription))
    .limit(1);
  if (!row?.subscriptionId) return "not-needed";
  try {
    await stripe.subscriptions.cancel(
      row.subscriptionId,
      { prorate: true },
      { idempotencyKey: attemptKey({ kind: "cancel-replaced", id: String(rowId) }, attempt) },
    );
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  await db
    .update(userSubscriptions)
    .set({ status: "canceled", updatedAt: sql`now()` })
    .where(and(eq(userSubscriptions.id, rowId), eq(userSubscriptions.status, "replaced")));
  return "done";
}

/**
 * fulfilOrderInTx records a Stripe add-on order whose add-ons the account already owned through
 * another order as paid (the money was taken) with `details.duplicateOf`, and grants nothing. This
 * cancels its subscription at Stripe (at once, no proration: it never granted anything) and ends the
 * order. The first payment is not refunded here: it is logged for the operator to refund in the
 * Stripe dashboard, and that refund's charge.refunded event records it (docs/decisions/0009).
 */
const duplicateStripeOrder = and(
  eq(orders.provider, "stripe"),
  eq(orders.status, "paid"),
  isNotNull(orders.providerSubscriptionId),
  sql`${orders.details} ? 'duplicateOf'`,
);

async function cancelDuplicateSubscription(db: Db, stripe: Stripe, orderId: string, attempt = "0"): Promise<FollowUpOutcome> {
  const [row] = await db
    .select({ subscriptionId: orders.providerSubscriptionId, details: orders.details, userId: orders.userId })
    .from(orders)
    .where(and(eq(orders.id, orderId), duplicateStripeOrder))
    .limit(1);
  if (!row?.subscriptionId) return "not-needed";
  try {
    await stripe.subscriptions.cancel(
      row.subscriptionId,
      {},
      { idempotencyKey: attemptKey({ kind: "cancel-duplicate", id: orderId }, attempt) },
    );
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  await db
    .update(orders)
    .set({ status: "canceled", subscriptionStatus: "canceled" })
    .where(and(eq(orders.id, orderId), eq(orders.status, "paid")));
  log.error("duplicate add-on subscription cancelled; refund its first payment in Stripe", {
    orderId,
    userId: row.userId,
    subscriptionId: row.subscriptionId,
    duplicateOf: row.details.duplicateOf,
  });
  return "done";
}

/**
 * A Stripe subscription order that endOrder ended (wholly refunded, or its dispute lost) whose
 * subscription has not been seen cancelled: orders.subscription_status becomes 'canceled' once it
 * is, here or by its deleted event.
 */
const endedStripeSubscriptionOrder = and(
  eq(orders.provider, "stripe"),
  eq(orders.status, "refunded"),
  eq(orders.isSubscription, true),
  isNotNull(orders.providerSubscriptionId),
  or(isNull(orders.subscriptionStatus), ne(orders.subscriptionStatus, "canceled")),
);

const ENDED_AT_STRIPE = new Set(["canceled", "incomplete_expired"]);

/**
 * The money of an ended order went back to the buyer, so its subscription is cancelled at Stripe at
 * once, without proration (nothing is owed back beyond what was refunded). The subscription is read
 * first and only one still running is cancelled, so a second attempt, or one after the operator
 * cancelled it in the dashboard, changes nothing at Stripe; the order is then marked so no sweep
 * picks it again.
 */
async function cancelEndedSubscription(db: Db, stripe: Stripe, orderId: string, attempt = "0"): Promise<FollowUpOutcome> {
  const [row] = await db
    .select({ subscriptionId: orders.providerSubscriptionId })
    .from(orders)
    .where(and(eq(orders.id, orderId), endedStripeSubscriptionOrder))
    .limit(1);
  if (!row?.subscriptionId) return "not-needed";
  let outcome: FollowUpOutcome = "not-needed";
  try {
    const subscription = await stripe.subscriptions.retrieve(row.subscriptionId);
    if (!ENDED_AT_STRIPE.has(subscription.status)) {
      await stripe.subscriptions.cancel(
        row.subscriptionId,
        {},
        { idempotencyKey: attemptKey({ kind: "cancel-ended", id: orderId }, attempt) },
      );
      outcome = "done";
    }
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  await db
    .update(orders)
    .set({ subscriptionStatus: "canceled", subscriptionUpdatedAt: sql`now()` })
    .where(and(eq(orders.id, orderId), endedStripeSubscriptionOrder));
  if (outcome === "done")
    log.info("cancelled the Stripe subscription of an ended order", { orderId, subscriptionId: row.subscriptionId });
  return outcome;
}

/** Longer than any trial of the catalogue (the distributor's 7 days): by then Stripe has ended it itself. */
const DROPPED_TRIAL_WINDOW_DAYS = 31;

/**
 * fulfilOrderInTx records a second trial of the same item and account without it (trial_days 0),
 * but the Stripe subscription its session created is still trialing. Such an order is a paid Stripe
 * subscription without trial days whose payments do not yet cover its first month (the checkout
 * charged the trial's amount, the setup fee or nothing), paid within the last month and neither
 * past due nor canceled.
 */
function droppedTrialOrder(): SQL {
  const paidSoFar = sql`coalesce((select sum(${paymentEvents.amount}) from ${paymentEvents} where ${paymentEvents.orderId} = ${orders.id} and ${paymentEvents.kind} = 'payment'), 0)`;
  return and(
    eq(orders.provider, "stripe"),
    eq(orders.status, "paid"),
    eq(orders.isSubscription, true),
    eq(orders.trialDays, 0),
    isNotNull(orders.providerSubscriptionId),
    gt(orders.paidAt, sql`now() - ${sql.raw(`interval '${DROPPED_TRIAL_WINDOW_DAYS} days'`)}`),
    or(isNull(orders.subscriptionStatus), eq(orders.subscriptionStatus, "active")),
    sql`${paidSoFar} < ${orders.amount} + ${orders.setupFee}`,
  )!;
}

/**
 * Ends the repeated trial now, so Stripe charges the first month at once. Its subscription is read
 * first and only a 'trialing' one is changed, so a trial already ended (by an earlier attempt whose
 * first invoice has not been paid yet, or by Stripe) is not ended twice. Gone at Stripe: its deleted
 * event cancels the order.
 */
export async function endDroppedTrial(db: Db, stripe: Stripe, orderId: string, attempt = "0"): Promise<FollowUpOutcome> {
  const [row] = await db
    .select({ subscriptionId: orders.providerSubscriptionId })
    .from(orders)
    .where(and(eq(orders.id, orderId), droppedTrialOrder()))
    .limit(1);
  if (!row?.subscriptionId) return "not-needed";
  try {
    const subscription = await stripe.subscriptions.retrieve(row.subscriptionId);
    if (subscription.status !== "trialing") return "not-needed";
    await stripe.subscriptions.update(
      row.subscriptionId,
      { trial_end: "now" },
      { idempotencyKey: attemptKey({ kind: "end-dropped-trial", id: orderId }, attempt) },
    );
  } catch (error) {
    if (isMissing(error)) return "not-needed";
    throw error;
  }
  log.info("ended a repeated Stripe trial", { orderId, subscriptionId: row.subscriptionId });
  return "done";
}

/** Runs one follow-up (the `stripe-follow-up` job's handler). Throws when Stripe failed: pg-boss retries. */
export function runStripeFollowUp(db: Db, stripe: Stripe, followUp: StripeFollowUp, attempt = "0"): Promise<FollowUpOutcome> {
  switch (followUp.kind) {
    case "cancel-replaced":
      return cancelReplacedSubscription(db, stripe, Number(followUp.id), attempt);
    case "end-dropped-trial":
      return endDroppedTrial(db, stripe, followUp.id, attempt);
    case "cancel-duplicate":
      return cancelDuplicateSubscription(db, stripe, followUp.id, attempt);
    case "cancel-ended":
      return cancelEndedSubscription(db, stripe, followUp.id, attempt);
  }
}

/**
 * Every row that still needs a Stripe call, up to `limit` of each kind: the periodic safety net
 * enqueues a job for each (a row whose job is still live is not enqueued twice: the job is keyed by
 * kind and id). A dropped trial whose subscription has already left its trial stays on the list
 * until the invoice that ends it is paid; its job reads the subscription and changes nothing.
 */
export async function findStripeFollowUps(db: Db, limit = 100): Promise<StripeFollowUp[]> {
  const replaced = await db
    .select({ id: userSubscriptions.id })
    .from(userSubscriptions)
    .where(replacedStripeSubscription)
    .limit(limit);
  const trials = await db
    .select({ id: orders.id })
    .from(orders)
    .where(droppedTrialOrder())
    // The newest are the likeliest to be still trialing.
    .orderBy(desc(orders.paidAt))
    .limit(limit);
  const duplicates = await db.select({ id: orders.id }).from(orders).where(duplicateStripeOrder).limit(limit);
  const ended = await db.select({ id: orders.id }).from(orders).where(endedStripeSubscriptionOrder).limit(limit);
  return [
    ...replaced.map((r) => ({ kind: "cancel-replaced" as const, id: String(r.id) })),
    ...trials.map((r) => ({ kind: "end-dropped-trial" as const, id: r.id })),
    ...duplicates.map((r) => ({ kind: "cancel-duplicate" as const, id: r.id })),
    ...ended.map((r) => ({ kind: "cancel-ended" as const, id: r.id })),
  ];
}

/** Logs a follow-up that failed (the job is retried), with what it was for. */
export function logFollowUpFailure(followUp: StripeFollowUp, error: unknown) {
  log.warn("Stripe follow-up failed; retried later", { ...followUp, error: errorMessage(error) });
}
