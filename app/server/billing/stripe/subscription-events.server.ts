import { and, eq, inArray, isNull, lte, ne, or, sql } from "drizzle-orm";
import type { Stripe } from "stripe";
import { type Db } from "../../db/client.server";
import { orders, userAddons, userSubscriptions } from "../../db/schema";
import { emailSubscriptionCancelled } from "../../mail/event-emails.server";
import { periodEndOf } from "./ids.server";
import { applyPlanChangeOfSubscription } from "./plan-change-events.server";
import type { EventOutcome } from "./event-outcome.server";

/** Stripe's statuses as ours: only 'active' grants access (trialing is access too). */
function localStatus(status: Stripe.Subscription.Status): string {
  if (status === "active" || status === "trialing") return "active";
  if (status === "canceled" || status === "incomplete_expired") return "canceled";
  return status;
}

/** A subscription as Stripe holds it now, and when it was read (the order states are applied in). */
export interface SubscriptionRead {
  subscription: Stripe.Subscription;
  readAt: Date;
  deleted: boolean;
}

/**
 * Re-reads the event's subscription from Stripe (before the transaction, like every prefetch). An
 * event is a snapshot: two events of one second (past_due, then active when the retry paid) carry
 * the same `created`, and may arrive in either order, so neither the payload nor the second tells
 * which state is current; Stripe does. A subscription Stripe no longer knows falls back to the
 * event's own snapshot.
 */
export async function readSubscription(stripe: Stripe, event: Stripe.Event): Promise<SubscriptionRead> {
  const sent = event.data.object as Stripe.Subscription;
  const readAt = new Date();
  try {
    const subscription = await stripe.subscriptions.retrieve(sent.id);
    const ended = subscription.status === "canceled" || subscription.status === "incomplete_expired";
    return { subscription, readAt, deleted: ended };
  } catch (error) {
    if ((error as { code?: string }).code !== "resource_missing") throw error;
    return { subscription: sent, readAt, deleted: event.type === "customer.subscription.deleted" };
  }
}

/**
 * Applies Stripe's current state of a subscription (readSubscription). Concurrent deliveries read
 * Stripe at different moments; a state is applied only when it was read at least as late as the
 * state already stored (provider_updated_at holds that read time), so the later read wins whichever
 * transaction commits first. 'canceled' is terminal; a plan the user replaced stays 'replaced'
 * unless Stripe ends it.
 */
export async function applySubscriptionState(tx: Db, read: SubscriptionRead): Promise<EventOutcome> {
  const { subscription, deleted } = read;
  const at = read.readAt;
  const periodEndSeconds = periodEndOf(subscription);
  const status = deleted ? "canceled" : localStatus(subscription.status);
  const set = {
    status: sql`case when ${userSubscriptions.status} = 'replaced' and ${status}::text <> 'canceled' then ${userSubscriptions.status} else ${status}::text end`,
    cancelAtPeriodEnd: subscription.cancel_at_period_end || subscription.cancel_at != null,
    ...(periodEndSeconds ? { currentPeriodEnd: new Date(periodEndSeconds * 1000) } : {}),
    providerUpdatedAt: sql`greatest(${userSubscriptions.providerUpdatedAt}, ${at.toISOString()}::timestamptz)`,
    updatedAt: sql`now()`,
  };
  const target = and(eq(userSubscriptions.providerSubscriptionId, subscription.id), eq(userSubscriptions.provider, "stripe"));
  const cancelEmail = deleted ? await cancellationToTell(tx, subscription.id, target) : null;
  const rows = await tx
    .update(userSubscriptions)
    .set(set)
    .where(
      deleted
        ? target
        : and(
            target,
            ne(userSubscriptions.status, "canceled"),
            or(isNull(userSubscriptions.providerUpdatedAt), lte(userSubscriptions.providerUpdatedAt, at)),
          ),
    )
    .returning({ id: userSubscriptions.id });
  if (deleted) {
    // A wholly refunded order stays 'refunded' (endWhenWhollyRefunded); the rest end 'canceled'.
    const ended = await tx
      .update(orders)
      .set({
        status: sql`case when ${orders.status} = 'refunded' then 'refunded' else 'canceled' end`,
        // Known ended: an ended order's subscription needs no cancel-ended follow-up.
        subscriptionStatus: "canceled",
        subscriptionUpdatedAt: at,
      })
      .where(and(eq(orders.providerSubscriptionId, subscription.id), eq(orders.provider, "stripe")))
      .returning({ id: orders.id });
    if (ended.length > 0) {
      // Add-ons are owned while their subscription runs.
      await tx
        .update(userAddons)
        .set({ status: "canceled", updatedAt: sql`now()` })
        .where(
          and(
            inArray(
              userAddons.orderId,
              ended.map((o) => o.id),
            ),
            eq(userAddons.status, "active"),
          ),
        );
    }
    if (cancelEmail) await emailSubscriptionCancelled(tx, cancelEmail.userId, cancelEmail);
    return rows.length + ended.length > 0 ? "applied" : "ignored";
  }
  // Monthly apps, packages, add-ons and the distributor program have no user_subscriptions row: their
  // paid order carries the subscription's state, so a past-due or unpaid subscription stops granting
  // access (hasActiveSubscription) without waiting for Stripe to delete it. Same read-time rule.
  const orderRows = await tx
    .update(orders)
    .set({ subscriptionStatus: status, subscriptionUpdatedAt: at })
    .where(
      and(
        eq(orders.providerSubscriptionId, subscription.id),
        eq(orders.provider, "stripe"),
        eq(orders.status, "paid"),
        or(isNull(orders.subscriptionUpdatedAt), lte(orders.subscriptionUpdatedAt, at)),
      ),
    )
    .returning({ id: orders.id });
  // A plan change whose confirm has not recorded it yet: Stripe's subscription is on its new Price.
  const changed = await applyPlanChangeOfSubscription(tx, subscription);
  return rows.length + orderRows.length > 0 || changed ? "applied" : "ignored";
}

/**
 * Whom to tell that a deleted Stripe subscription ended, read before the deletion is applied; null
 * when the customer is told otherwise or not at all: a plan replaced by a plan change, a wholly
 * refunded order (its refund email), a duplicate add-on cancelled for them, or nothing of ours.
 * Keyed by the subscription, so a redelivered deletion writes no second email.
 */
async function cancellationToTell(tx: Db, subscriptionId: string, target: ReturnType<typeof and>) {
  const [row] = await tx.select().from(userSubscriptions).where(target).limit(1);
  const [order] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.providerSubscriptionId, subscriptionId), eq(orders.provider, "stripe")))
    .limit(1);
  if (row?.status === "replaced" || order?.status === "refunded" || order?.details.duplicateOf) return null;
  const userId = row?.userId ?? order?.userId;
  if (!userId) return null;
  return { userId, ref: `stripe:${subscriptionId}`, itemName: row?.planName ?? order?.itemName ?? "subscription" };
}
