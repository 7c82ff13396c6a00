import { and, eq } from "drizzle-orm";
import type { Stripe } from "stripe";
import { type Db } from "../../db/client.server";
import { billingCustomers, type OrderRow, orders } from "../../db/schema";
import { log } from "../../log.server";
import { authoriseTrialInTx } from "../authorise-trial.server";
import { capturesAfterTrial, chargedAtTrialEnd, dueToday } from "../due-today.server";
import { fulfilOrderInTx } from "../fulfil-order.server";
import { idOf, periodEndOf } from "./ids.server";

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
  // A trial's authorisation: Stripe's session total is the amount held, captured when the trial ends.
  const authorises = capturesAfterTrial(order);
  if (authorises && order.status !== "pending" && order.status !== "declined") return { ok: true, order };
  const expected = authorises ? chargedAtTrialEnd(order) : dueToday(order);
  if (session.amount_total !== expected)
    return { ok: false, reason: `amount ${session.amount_total} differs from the order's ${expected}`, order };
  if ((session.currency ?? "").toLowerCase() !== order.currency)
    return { ok: false, reason: `currency ${session.currency} differs from ${order.currency}`, order };
  if (session.mode !== (order.isSubscription ? "subscription" : "payment"))
    return { ok: false, reason: `mode ${session.mode} does not match the order`, order };
  // A held (manually captured) payment leaves the session 'unpaid'; its PaymentIntent says it is held.
  const intent = typeof session.payment_intent === "object" ? session.payment_intent : null;
  const held = authorises && intent?.status === "requires_capture" && intent.amount_capturable === expected;
  const settled =
    held || session.payment_status === "paid" || (session.payment_status === "no_payment_required" && expected === 0);
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
  const intent = typeof session.payment_intent === "object" ? session.payment_intent : null;
  if (capturesAfterTrial(order) && intent?.status === "requires_capture") {
    // Held, not charged: the trial starts; its capture job is enqueued in this transaction.
    const authorised = await authoriseTrialInTx(tx, session.id, {
      paymentIntentId: intent.id,
      providerCustomerId: customerId,
    });
    if (customerId) {
      await tx.insert(billingCustomers).values({ userId: order.userId, provider: "stripe", customerId }).onConflictDoNothing();
    }
    return authorised;
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

/**
 * The return page's re-sync: when the buyer is back before the webhook, re-read their own session
 * and fulfil it with the same checks. Idempotent with the webhook (the order is paid once).
 */
export async function syncCheckoutSession(
  db: Db,
  stripe: Stripe,
  order: OrderRow,
): Promise<"fulfilled" | "already" | "not_paid"> {
  if (order.status === "paid" || (order.captureAt && order.status !== "pending" && order.status !== "declined")) return "already";
  if (order.provider !== "stripe" || (order.status !== "pending" && order.status !== "declined")) return "not_paid";
  const session = await stripe.checkout.sessions.retrieve(order.providerSessionId, {
    expand: ["subscription", "payment_intent"],
  });
  const check = await checkSession(db, session);
  if (!check.ok || check.order.id !== order.id) {
    if (session.payment_status !== "unpaid")
      log.warn("stripe session not fulfilled on sync", { orderId: order.id, reason: check.ok ? "other order" : check.reason });
    return "not_paid";
  }
  const fulfilled = await db.transaction((tx) => fulfilCheckedSession(tx as unknown as Db, check.order, session));
  return fulfilled ? "fulfilled" : "already";
}
