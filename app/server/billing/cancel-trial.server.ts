import { and, eq, gt, sql } from "drizzle-orm";
import type { TrialCancelCode } from "~/lib/trial-cancel-codes";
import type { Db } from "../db/client.server";
import { type OrderRow, orders } from "../db/schema";
import { errorMessage, log } from "../log.server";
import { paymentIntentOf } from "./capture-trial.server";
import { voidPaymentIntent } from "./stripe/authorisations.server";
import { stripeClient } from "./stripe/client.server";

export type CancelTrialResult = { ok: true; order: OrderRow } | { ok: false; code: TrialCancelCode };

/**
 * The customer cancels a one-time build's trial before it ends (docs/decisions/0045-trial-then-capture.md):
 * 'authorized' -> 'canceled' only while the capture time is still ahead, so it never races the capture
 * job (which claims the order only once that time has passed). Nothing was charged and nothing is
 * granted. A Stripe authorisation is voided after the commit; if that call fails, the order's capture
 * job voids it at the trial's end (capture-trial.server.ts), and an unused authorisation lapses at
 * Stripe after 7 days in any case, uncharged.
 */
export async function cancelTrial(db: Db, userId: string, orderId: string): Promise<CancelTrialResult> {
  const [order] = await db
    .update(orders)
    .set({ status: "canceled" })
    .where(
      and(eq(orders.id, orderId), eq(orders.userId, userId), eq(orders.status, "authorized"), gt(orders.captureAt, sql`now()`)),
    )
    .returning();
  if (!order) {
    const [own] = await db
      .select({ status: orders.status, captureAt: orders.captureAt })
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.userId, userId)))
      .limit(1);
    if (!own?.captureAt) return { ok: false, code: "trial_not_found" };
    return { ok: false, code: own.status === "canceled" ? "trial_already_canceled" : "trial_ended" };
  }
  const intentId = paymentIntentOf(order);
  if (order.provider === "stripe" && intentId) {
    try {
      await voidPaymentIntent(stripeClient(), intentId, order.id);
    } catch (error) {
      log.warn("could not void a canceled trial's authorisation; the capture job retries", {
        orderId: order.id,
        error: errorMessage(error),
      });
    }
  }
  return { ok: true, order };
}
