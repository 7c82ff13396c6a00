import { and, eq, lte, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { type OrderRow, orders } from "../db/schema";
import { log } from "../log.server";
import { emailPaymentFailed } from "../mail/event-emails.server";
import { chargedAtTrialEnd } from "./due-today.server";
import { recordPayment } from "./record-payment.server";
import { capturePaymentIntent, voidPaymentIntent } from "./stripe/authorisations.server";
import { stripeClient } from "./stripe/client.server";

export type CaptureOutcome = "captured" | "capture_failed" | "voided" | "not_due" | "nothing";

/**
 * The trial-capture job (docs/decisions/0045-trial-then-capture.md): when a one-time build's trial
 * ends, the authorised payment is captured, the order becomes 'paid' and the payment is recorded
 * (which accrues an affiliate's commission, record-payment.server.ts); a capture the provider
 * refuses for good marks it 'capture_failed', which grants nothing.
 *
 * The order is first claimed ('authorized' -> 'capturing', only once the capture time has passed),
 * so a customer's cancel (allowed only before that time, from 'authorized') and the capture never
 * both happen. A job retried after a crash finds 'capturing' and captures again: the provider's
 * capture is idempotent (stripe/authorisations.server.ts) and the payment is recorded once. An
 * order canceled during its trial gets its authorisation voided here again, in case the void at
 * cancel time failed. Throws on a provider outage, so pg-boss retries.
 */
export async function captureTrial(db: Db, orderId: string): Promise<CaptureOutcome> {
  const [claimed] = await db
    .update(orders)
    .set({ status: "capturing" })
    .where(and(eq(orders.id, orderId), eq(orders.status, "authorized"), lte(orders.captureAt, sql`now()`)))
    .returning();
  const order = claimed ?? (await db.select().from(orders).where(eq(orders.id, orderId)).limit(1))[0];
  if (!order || !order.captureAt) return "nothing";
  if (order.status === "authorized") return "not_due";
  if (order.status === "canceled") return (await voidAfterCancel(order)) ? "voided" : "nothing";
  if (order.status !== "capturing") return "nothing";

  if (order.provider === "local") {
    if (order.details.localCaptureFails === true) return markFailed(db, order, "test card refused the capture");
    return markCaptured(db, order, chargedAtTrialEnd(order), `local:${order.providerSessionId}`);
  }
  const intentId = paymentIntentOf(order);
  if (!intentId) return markFailed(db, order, "no payment intent on the order");
  const result = await capturePaymentIntent(stripeClient(), intentId, order.id);
  if (!result.captured) return markFailed(db, order, `payment intent is ${result.status}`);
  return markCaptured(db, order, result.amount, intentId);
}

/** 'capturing' -> 'paid' and the payment event, in one transaction, once. */
async function markCaptured(db: Db, order: OrderRow, amount: number, providerRef: string): Promise<CaptureOutcome> {
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [paid] = await tx
      .update(orders)
      .set({ status: "paid", paidAt: sql`now()` })
      .where(and(eq(orders.id, order.id), eq(orders.status, "capturing")))
      .returning({ id: orders.id });
    if (!paid) return "nothing";
    await recordPayment(
      tx,
      { userId: order.userId, orderId: order.id, amount, provider: order.provider, providerRef },
      { capturedBuild: true },
    );
    log.info("trial payment captured", { orderId: order.id, amount });
    return "captured";
  });
}

/** 'capturing' -> 'capture_failed' and the customer's 'payment failed' email, in one transaction. */
async function markFailed(db: Db, order: OrderRow, reason: string): Promise<CaptureOutcome> {
  await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [failed] = await tx
      .update(orders)
      .set({ status: "capture_failed" })
      .where(and(eq(orders.id, order.id), eq(orders.status, "capturing")))
      .returning();
    if (failed) await emailPaymentFailed(tx, failed, "capture", "the card refused the charge");
  });
  log.warn("trial payment could not be captured", { orderId: order.id, reason });
  return "capture_failed";
}

/** A canceled trial's Stripe authorisation, released (again); true when it is released. */
async function voidAfterCancel(order: OrderRow): Promise<boolean> {
  const intentId = paymentIntentOf(order);
  if (order.provider !== "stripe" || !intentId) return false;
  return voidPaymentIntent(stripeClient(), intentId, order.id);
}

export function paymentIntentOf(order: Pick<OrderRow, "details">): string | null {
  const id = order.details.paymentIntentId;
  return typeof id === "string" ? id : null;
}
