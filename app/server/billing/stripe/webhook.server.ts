import type { EventOutcome } from "./event-outcome.server";
import { and, eq } from "drizzle-orm";
import type { Stripe } from "stripe";
import { type Db } from "../../db/client.server";
import { orders, stripeEvents } from "../../db/schema";
import { log } from "../../log.server";
import { checkSession, fulfilCheckedSession, type SessionCheck } from "./checkout-session-events.server";
import { applyDispute, DISPUTE_EVENTS, readDispute, type DisputeRead } from "./dispute-events.server";
import { applyInvoicePaid, applyInvoicePaymentFailed } from "./invoice-events.server";
import { applyChargeRefunds, ownerOfCharge, type ChargeOwner } from "./refund-events.server";
import { applySubscriptionState, readSubscription, type SubscriptionRead } from "./subscription-events.server";

/**
 * Stripe events (docs/decisions/0008-stripe-provider.md), one handler module per event family.
 *
 * Everything that talks to Stripe happens before the database transaction, so no transaction is
 * held open across a network call; the transaction then inserts the event id into the ledger and
 * applies the effects, so an event's effects commit exactly once or not at all.
 */

/** What an event needs from Stripe, fetched before the transaction. */
type Prefetched =
  | { kind: "session"; session: Stripe.Checkout.Session; check: SessionCheck }
  | { kind: "refunds"; owner: ChargeOwner | null; refunds: Stripe.Refund[] }
  | { kind: "subscription"; read: SubscriptionRead }
  | { kind: "dispute"; read: DisputeRead | null }
  | { kind: "none" };

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
    const session = await stripe.checkout.sessions.retrieve(sent.id, { expand: ["subscription", "payment_intent"] });
    return { kind: "session", session, check: await checkSession(db, session) };
  }
  if (event.type === "charge.refunded") {
    const charge = event.data.object;
    const listed = charge.refunds && !charge.refunds.has_more ? charge.refunds.data : null;
    const refunds = listed ?? (await stripe.refunds.list({ charge: charge.id, limit: 100 })).data;
    return { kind: "refunds", owner: await ownerOfCharge(db, stripe, charge), refunds };
  }
  if (event.type === "customer.subscription.updated" || event.type === "customer.subscription.deleted") {
    return { kind: "subscription", read: await readSubscription(stripe, event) };
  }
  if (DISPUTE_EVENTS.has(event.type)) return { kind: "dispute", read: await readDispute(db, stripe, event) };
  return { kind: "none" };
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
    case "invoice.payment_failed":
      return applyInvoicePaymentFailed(tx, event.data.object, event.id);
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      return pre.kind === "subscription" ? applySubscriptionState(tx, pre.read) : "ignored";
    case "charge.refunded": {
      if (pre.kind !== "refunds" || !pre.owner) {
        log.warn("stripe refund of an unknown charge", { eventId: event.id, chargeId: event.data.object.id });
        return "ignored";
      }
      return (await applyChargeRefunds(tx, pre.owner, pre.refunds)) ? "applied" : "ignored";
    }
    default:
      if (DISPUTE_EVENTS.has(event.type) && pre.kind === "dispute") return applyDispute(tx, event.id, pre.read);
      return "ignored";
  }
}
