import { and, desc, eq, gt, inArray, isNotNull, isNull, lte, ne, or, sql } from "drizzle-orm";
import type { Stripe } from "stripe";
import { type Db, queryRows } from "../db/client.server";
import {
  billingCustomers,
  orders,
  paymentEvents,
  stripeEvents,
  userAddons,
  userSubscriptions,
  type OrderRow,
} from "../db/schema";
import { log, errorMessage } from "../log.server";
import { dueToday, fulfilOrderInTx, recordPayment, recordRefund } from "./checkout.server";

/**
 * Stripe events and the return-page re-sync (docs/decisions/0008-stripe-provider.md).
 *
 * Everything that talks to Stripe happens before the database transaction, so no transaction is
 * held open across a network call; the transaction then inserts the event id into the ledger and
 * applies the effects, so an event's effects commit exactly once or not at all.
 */

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : value.id;

export type SessionCheck = { ok: true; order: OrderRow } | { ok: false; reason: string; order?: OrderRow };

/** The order a session claims to pay, read by the id Stripe echoes back (metadata and client_reference_id). */
async function orderOfSession(db: Db, session: Stripe.Checkout.Session): Promise<OrderRow | undefined> {
  const fromMetadata = session.metadata?.order_id ?? null;
  const fromReference = session.client_reference_id ?? null;
  if (fromMetadata && fromReference && fromMetadata !== fromReference) return undefined;
  const orderId = fromMetadata ?? fromReference;
  if (!orderId) return undefined;
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  return order;
}

/**
 * Whether a (re-read) Checkout Session really pays its order: the right order and session, the
 * amount the server priced for today, the currency, the mode and a settled payment status.
 */
export async function checkSession(db: Db, session: Stripe.Checkout.Session): Promise<SessionCheck> {
  const order = await orderOfSession(db, session);
  if (!order) return { ok: false, reason: "unknown order" };
  if (order.provider !== "stripe") return { ok: false, reason: "order is not a Stripe order", order };
  // createCheckout writes the session id after Stripe answers; an event can only beat that by a hair.
  if (order.providerSessionId !== session.id && order.providerSessionId !== `pending_${order.id}`)
    return { ok: false, reason: "session does not belong to the order", order };
  // Nothing is fulfilled twice, and fulfilment may have dropped a repeated trial
  // (withoutRepeatedTrial), after which the session's amount no longer matches dueToday.
  if (order.status === "paid") return { ok: true, order };
  const expected = dueToday(order);
  if (session.amount_total !== expected)
    return { ok: false, reason: `amount ${session.amount_total} differs from the order's ${expected}`, order };
  if ((session.currency ?? "").toLowerCase() !== order.currency)
    return { ok: false, reason: `currency ${session.currency} differs from ${order.currency}`, order };
  if (session.mode !== (order.isSubscription ? "subscription" : "payment"))
    return { ok: false, reason: `mode ${session.mode} does not match the order`, order };
  const settled = session.payment_status === "paid" || (session.payment_status === "no_payment_required" && expected === 0);
  if (!settled) return { ok: false, reason: `payment status ${session.payment_status}`, order };
  return { ok: true, order };
}

/**
 * Fulfils a checked session inside `tx`: the order's effects once, the first payment under the
 * reference later events use too (payment intent, or the first invoice of a subscription), and the
 * buyer's Stripe customer, which the customer portal is opened for.
 */
export async function fulfilCheckedSession(tx: Db, order: OrderRow, session: Stripe.Checkout.Session) {
  const customerId = idOf(session.customer);
  const subscriptionId = idOf(session.subscription);
  if (order.providerSessionId !== session.id) {
    await tx
      .update(orders)
      .set({ providerSessionId: session.id })
      .where(and(eq(orders.id, order.id), eq(orders.providerSessionId, `pending_${order.id}`)));
  }
  const paymentRef = order.isSubscription ? idOf(session.invoice) : (idOf(session.payment_intent) ?? `stripe:${session.id}`);
  // Expanded on re-read: the real end of the first (or trial) period rather than an estimate.
  const periodEnd = typeof session.subscription === "object" ? periodEndOf(session.subscription) : undefined;
  const fulfilled = await fulfilOrderInTx(tx, session.id, {
    paymentRef,
    paidAmount: session.amount_total ?? 0,
    providerCustomerId: customerId,
    providerSubscriptionId: subscriptionId,
    currentPeriodEnd: periodEnd ? new Date(periodEnd * 1000) : null,
  });
  if (customerId) {
    await tx.insert(billingCustomers).values({ userId: order.userId, provider: "stripe", customerId }).onConflictDoNothing();
  }
  return fulfilled;
}

/** Seconds; on the subscription item since API version 2025-03-31, on the subscription before. */
function periodEndOf(subscription: Stripe.Subscription | null): number | undefined {
  if (!subscription) return undefined;
  return (
    subscription.items?.data?.[0]?.current_period_end ??
    (subscription as unknown as { current_period_end?: number }).current_period_end
  );
}

/** What an event needs from Stripe, fetched before the transaction. */
type Prefetched =
  | { kind: "session"; session: Stripe.Checkout.Session; check: SessionCheck }
  | { kind: "refunds"; owner: { userId: string; orderId: string | null } | null; refunds: Stripe.Refund[] }
  | { kind: "none" };

export type EventOutcome = "applied" | "duplicate" | "ignored";

const SESSION_PAID_EVENTS = new Set(["checkout.session.completed", "checkout.session.async_payment_succeeded"]);

/**
 * Applies one verified event. Throws on a database or Stripe API error, so the webhook answers 500
 * and Stripe delivers the event again; the rolled-back transaction left no trace of it.
 */
export async function handleStripeEvent(db: Db, stripe: Stripe, event: Stripe.Event): Promise<EventOutcome> {
  const [seen] = await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, event.id)).limit(1);
  if (seen) return "duplicate";
  const pre = await prefetch(db, stripe, event);
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [inserted] = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type, created: event.created })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    // A concurrent delivery of the same event committed first: its effects are already applied.
    if (!inserted) return "duplicate";
    return apply(tx, event, pre);
  });
}

async function prefetch(db: Db, stripe: Stripe, event: Stripe.Event): Promise<Prefetched> {
  if (SESSION_PAID_EVENTS.has(event.type)) {
    const sent = event.data.object as Stripe.Checkout.Session;
    // The event is a snapshot; the session as Stripe holds it now is what we fulfil against.
    const session = await stripe.checkout.sessions.retrieve(sent.id, { expand: ["subscription"] });
    return { kind: "session", session, check: await checkSession(db, session) };
  }
  if (event.type === "charge.refunded") {
    const charge = event.data.object;
    const listed = charge.refunds && !charge.refunds.has_more ? charge.refunds.data : null;
    const refunds = listed ?? (await stripe.refunds.list({ charge: charge.id, limit: 100 })).data;
    return { kind: "refunds", owner: await ownerOfCharge(db, stripe, charge), refunds };
  }
  return { kind: "none" };
}

async function paymentOwner(db: Db, providerRef: string) {
  const [row] = await db
    .select({ userId: paymentEvents.userId, orderId: paymentEvents.orderId })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.providerRef, providerRef), eq(paymentEvents.kind, "payment")))
    .limit(1);
  return row;
}

/** Whose money a charge was: its payment intent, else the invoice it paid, else its customer. */
async function ownerOfCharge(db: Db, stripe: Stripe, charge: Stripe.Charge) {
  const paymentIntent = idOf(charge.payment_intent);
  if (paymentIntent) {
    const direct = await paymentOwner(db, paymentIntent);
    if (direct) return direct;
    const payments = await stripe.invoicePayments.list({
      payment: { type: "payment_intent", payment_intent: paymentIntent },
      limit: 1,
    });
    const invoiceId = idOf(payments.data[0]?.invoice as string | { id: string } | undefined);
    const viaInvoice = invoiceId ? await paymentOwner(db, invoiceId) : undefined;
    if (viaInvoice) return viaInvoice;
  }
  const customerId = idOf(charge.customer);
  if (!customerId) return null;
  const [customer] = await db
    .select({ userId: billingCustomers.userId })
    .from(billingCustomers)
    .where(and(eq(billingCustomers.provider, "stripe"), eq(billingCustomers.customerId, customerId)))
    .limit(1);
  return customer ? { userId: customer.userId, orderId: null } : null;
}

async function apply(tx: Db, event: Stripe.Event, pre: Prefetched): Promise<EventOutcome> {
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      if (pre.kind !== "session") return "ignored";
      if (!pre.check.ok) {
        // Signed but not payable as ordered (a tampered amount, an unpaid async payment): nothing is
        // fulfilled; an async payment that settles later arrives as async_payment_succeeded.
        // Unpaid: an async payment still settling. No order: another integration on the same account.
        const level = pre.session.payment_status === "unpaid" ? "info" : pre.check.order ? "error" : "warn";
        log[level]("stripe session not fulfilled", {
          eventId: event.id,
          sessionId: pre.session.id,
          orderId: pre.check.order?.id,
          reason: pre.check.reason,
        });
        return "ignored";
      }
      await fulfilCheckedSession(tx, pre.check.order, pre.session);
      return "applied";
    }
    case "checkout.session.async_payment_failed":
    case "checkout.session.expired": {
      const session = event.data.object;
      const rows = await tx
        .update(orders)
        .set({ status: "canceled" })
        .where(and(eq(orders.providerSessionId, session.id), eq(orders.provider, "stripe"), eq(orders.status, "pending")))
        .returning({ id: orders.id });
      return rows.length > 0 ? "applied" : "ignored";
    }
    case "invoice.paid":
      return applyInvoicePaid(tx, event.data.object);
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      return applySubscriptionState(tx, event.data.object, event.created, event.type === "customer.subscription.deleted");
    case "charge.refunded": {
      if (pre.kind !== "refunds" || !pre.owner) {
        log.warn("stripe refund of an unknown charge", { eventId: event.id, chargeId: event.data.object.id });
        return "ignored";
      }
      let recorded = false;
      for (const refund of pre.refunds) {
        // Failed or canceled refunds returned nothing.
        if (refund.status !== "succeeded" && refund.status !== "pending") continue;
        recorded =
          (await recordRefund(tx, {
            userId: pre.owner.userId,
            orderId: pre.owner.orderId,
            amount: refund.amount,
            provider: "stripe",
            providerRef: refund.id,
            currency: refund.currency,
          })) || recorded;
      }
      const ended = pre.owner.orderId ? await endWhenWhollyRefunded(tx, pre.owner.orderId) : false;
      return recorded || ended ? "applied" : "ignored";
    }
    default:
      return "ignored";
  }
}

/**
 * An order whose refunds add up to everything paid for it becomes 'refunded' (billing history's
 * 'Refunded'); a partial refund keeps it paid. 'refunded' ends what the order granted: a one-time app
 * or package is no longer listed as owned (listPurchasedAutomations reads 'paid'), a subscription
 * order no longer makes the account active (hasActiveSubscription) nor holds the distributor
 * membership, and its add-ons stop being owned now. A plan's or tier's user_subscriptions row ends
 * with its Stripe subscription's deleted event: a refund does not cancel a subscription at Stripe,
 * the operator does (docs/decisions/0008). Idempotent: a repeated event changes nothing.
 */
async function endWhenWhollyRefunded(tx: Db, orderId: string): Promise<boolean> {
  const [totals] = await tx
    .select({
      paid: sql<string>`coalesce(sum(case when ${paymentEvents.kind} = 'payment' then ${paymentEvents.amount} end), 0)`,
      refunded: sql<string>`coalesce(sum(case when ${paymentEvents.kind} = 'refund' then ${paymentEvents.amount} end), 0)`,
    })
    .from(paymentEvents)
    .where(eq(paymentEvents.orderId, orderId));
  const paid = Number(totals?.paid ?? 0);
  if (paid <= 0 || Number(totals?.refunded ?? 0) < paid) return false;
  const rows = await tx
    .update(orders)
    .set({ status: "refunded" })
    .where(and(eq(orders.id, orderId), inArray(orders.status, ["paid", "canceled"])))
    .returning({ id: orders.id });
  if (rows.length === 0) return false;
  await tx
    .update(userAddons)
    .set({ status: "canceled", updatedAt: sql`now()` })
    .where(and(eq(userAddons.orderId, orderId), eq(userAddons.status, "active")));
  log.info("order wholly refunded", { orderId });
  return true;
}

function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  const fromParent = invoice.parent?.subscription_details?.subscription;
  if (fromParent) return idOf(fromParent);
  // Payloads of API versions before 2025-03-31 carried the id at the top level.
  return idOf((invoice as unknown as { subscription?: string | { id: string } | null }).subscription);
}

/**
 * Renewals. The first invoice of a subscription belongs to checkout.session.completed (its
 * fulfilment records it under the same invoice id), so it is skipped here; the unique provider
 * reference would absorb a second recording anyway.
 */
async function applyInvoicePaid(tx: Db, invoice: Stripe.Invoice): Promise<EventOutcome> {
  if (invoice.billing_reason === "subscription_create" || invoice.amount_paid <= 0) return "ignored";
  const subscriptionId = subscriptionOfInvoice(invoice);
  if (!subscriptionId) return "ignored";
  const [order] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.providerSubscriptionId, subscriptionId), eq(orders.provider, "stripe")))
    .limit(1);
  if (!order) return "ignored";
  const recorded = await recordPayment(tx, {
    userId: order.userId,
    orderId: order.id,
    amount: invoice.amount_paid,
    provider: "stripe",
    providerRef: invoice.id,
    currency: invoice.currency,
  });
  return recorded ? "applied" : "ignored";
}

/** Stripe's statuses as ours: only 'active' grants access (trialing is access too). */
function localStatus(status: Stripe.Subscription.Status): string {
  if (status === "active" || status === "trialing") return "active";
  if (status === "canceled" || status === "incomplete_expired") return "canceled";
  return status;
}

/**
 * Out-of-order safe: a state is applied only when its event is at least as new as the last applied
 * one (provider_updated_at), and 'canceled' is terminal, so any delivery order converges to the
 * newest state. A plan the user replaced stays 'replaced' unless Stripe ends it.
 */
async function applySubscriptionState(
  tx: Db,
  subscription: Stripe.Subscription,
  created: number,
  deleted: boolean,
): Promise<EventOutcome> {
  const at = new Date(created * 1000);
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
      .set({ status: sql`case when ${orders.status} = 'refunded' then 'refunded' else 'canceled' end` })
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
    return rows.length + ended.length > 0 ? "applied" : "ignored";
  }
  // Monthly apps, packages, add-ons and the distributor program have no user_subscriptions row: their
  // paid order carries the subscription's state, so a past-due or unpaid subscription stops granting
  // access (hasActiveSubscription) without waiting for Stripe to delete it. Same ordering rule.
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
  return rows.length + orderRows.length > 0 ? "applied" : "ignored";
}

/**
 * The return page's re-sync: when the buyer is back before the webhook, re-read their own session
 * and fulfil it with the same checks. Idempotent with the webhook (the order is paid once).
 */
export async function syncCheckoutSession(
  db: Db,
  stripe: Stripe,
  order: OrderRow,
): Promise<"fulfilled" | "already" | "not_paid"> {
  if (order.status === "paid") return "already";
  if (order.provider !== "stripe" || (order.status !== "pending" && order.status !== "declined")) return "not_paid";
  const session = await stripe.checkout.sessions.retrieve(order.providerSessionId, { expand: ["subscription"] });
  const check = await checkSession(db, session);
  if (!check.ok || check.order.id !== order.id) {
    if (session.payment_status !== "unpaid")
      log.warn("stripe session not fulfilled on sync", { orderId: order.id, reason: check.ok ? "other order" : check.reason });
    return "not_paid";
  }
  const fulfilled = await db.transaction((tx) => fulfilCheckedSession(tx as unknown as Db, check.order, session));
  return fulfilled ? "fulfilled" : "already";
}

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
