import { eq } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { type OrderRow, type PaymentEventRow, orders } from "../db/schema";
import { money } from "./templates/layout";
import { queueUserEmailInTx } from "./queue-email.server";

/**
 * The emails billing and trial events imply, each queued in the event's own transaction and keyed
 * by the event (docs/decisions/0072-transactional-emails.md): a repeated webhook, a retried job or a
 * second call after a restart writes nothing new.
 */

async function orderOf(tx: Db, orderId: string | null): Promise<OrderRow | undefined> {
  if (!orderId) return undefined;
  return (await tx.select().from(orders).where(eq(orders.id, orderId)).limit(1))[0];
}

/**
 * Money received or returned (record-payment.server.ts): a receipt, or for a one-time build captured
 * at its trial's end the 'charged, your build starts' email (which is its receipt), or a refund.
 */
export async function emailPaymentEvent(tx: Db, event: PaymentEventRow, options: { capturedBuild?: boolean } = {}) {
  const order = await orderOf(tx, event.orderId);
  const itemName = order?.itemName ?? "your purchase";
  const money = { itemName, amount: event.amount, currency: event.currency };
  if (event.kind === "refund") {
    return queueUserEmailInTx(tx, event.userId, { kind: "refundIssued", props: money, subjectId: event.id });
  }
  const paid = { ...money, paidAt: event.createdAt, receiptId: event.id };
  if (options.capturedBuild)
    return queueUserEmailInTx(tx, event.userId, { kind: "buildCharged", props: paid, subjectId: event.id });
  return queueUserEmailInTx(tx, event.userId, { kind: "paymentReceipt", props: paid, subjectId: event.id });
}

/**
 * A paid order's own email beside its receipt: the distributor program's welcome (the training
 * access the success page promises), or a subscription's free trial starting.
 */
export async function emailOrderFulfilled(tx: Db, order: OrderRow, trialEnd: Date | null) {
  if (order.kind === "distributor") {
    const fullName = typeof order.details.fullName === "string" ? order.details.fullName : null;
    await queueUserEmailInTx(tx, order.userId, { kind: "distributorWelcome", props: { fullName }, subjectId: order.id });
  }
  // The distributor program's welcome already says what its trial week holds.
  if (order.isSubscription && order.trialDays > 0 && order.kind !== "distributor") {
    const endsAt = trialEnd ?? new Date(Date.now() + order.trialDays * 86_400_000);
    await queueUserEmailInTx(tx, order.userId, {
      kind: "trialStarted",
      props: { itemName: order.itemName, endsAt, chargeNote: `${money(order.amount, order.currency)} a month` },
      subjectId: `order:${order.id}`,
    });
  }
}

/** A one-time build's card is held for its trial (authorise-trial.server.ts). */
export async function emailBuildTrialStarted(tx: Db, order: OrderRow) {
  if (!order.captureAt) return null;
  return queueUserEmailInTx(tx, order.userId, {
    kind: "trialStarted",
    props: {
      itemName: order.itemName,
      endsAt: order.captureAt,
      chargeNote: `${money(order.amount, order.currency)} is charged when the trial ends`,
    },
    subjectId: `order:${order.id}`,
  });
}

/** A checkout's card was declined, or a held payment could not be captured. */
export async function emailPaymentFailed(tx: Db, order: OrderRow, event: "declined" | "capture", reason?: string) {
  return queueUserEmailInTx(tx, order.userId, {
    kind: "paymentFailed",
    props: {
      itemName: order.itemName,
      amount: order.amount,
      currency: order.currency,
      reason: reason ?? null,
      // A declined local checkout stays open for another card; a failed capture is settled on billing.
      retryPath:
        event === "declined" && order.provider === "local" ? `/checkout/local/${order.providerSessionId}` : "/dashboard/billing",
    },
    subjectId: `${event}:${order.id}`,
  });
}

/**
 * A subscription's renewal the card refused (Stripe's invoice.payment_failed), once per event:
 * Stripe retries on its own schedule and sends a new event for each failed attempt.
 */
export async function emailRenewalFailed(
  tx: Db,
  order: OrderRow,
  failure: { eventId: string; amount: number; currency: string; nextAttemptAt: Date | null },
) {
  return queueUserEmailInTx(tx, order.userId, {
    kind: "paymentFailed",
    props: {
      itemName: order.itemName,
      amount: failure.amount,
      currency: failure.currency,
      retryPath: "/dashboard/billing",
      renewal: { nextAttemptAt: failure.nextAttemptAt },
    },
    subjectId: `renewal:${failure.eventId}`,
  });
}

/** A subscription ended or set to end (the customer's cancel, or Stripe's deletion). */
export async function emailSubscriptionCancelled(
  tx: Db,
  userId: string,
  subscription: { ref: string; itemName: string; endsAt?: Date | null },
) {
  return queueUserEmailInTx(tx, userId, {
    kind: "subscriptionCancelled",
    props: { itemName: subscription.itemName, endsAt: subscription.endsAt ?? null },
    subjectId: subscription.ref,
  });
}
