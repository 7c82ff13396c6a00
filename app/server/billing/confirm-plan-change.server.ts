import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { type OrderRow, orders, userSubscriptions } from "../db/schema";
import { errorMessage, log } from "../log.server";
import { applyPlanChangeInTx, changeDetails, getPlanChange } from "./plan-changes.server";
import { dueNow } from "./proration.server";
import { stripeClient } from "./stripe/client.server";
import { isPaymentRefusal, updateStripePlan } from "./stripe/plan-change.server";

/** How long the figures of a quote can be confirmed: the proration is for the moment they were computed. */
export const QUOTE_MINUTES = 30;

type PlanChangeFailure = "not_found" | "expired" | "stale" | "declined" | "unavailable";

export type PlanChangeResult = { ok: true; order: OrderRow } | { ok: false; code: PlanChangeFailure; message: string };

const PLAN_CHANGE_MESSAGES: Record<PlanChangeFailure, string> = {
  not_found: "This plan change was not found. Choose the plan again on the billing page.",
  expired: "These figures have expired. Choose the plan again to see today's figures.",
  stale: "Your plan has changed since these figures were shown. Choose the plan again to see new figures.",
  declined:
    "Your card was declined, so your plan was not changed and nothing was charged. Update your card in Manage Billing, then try again.",
  unavailable: "Payment system is currently unavailable. Your plan was not changed. Please try again later.",
};

const fail = (code: PlanChangeFailure): PlanChangeResult => ({ ok: false, code, message: PLAN_CHANGE_MESSAGES[code] });

async function cancelQuote(db: Db, orderId: string) {
  await db
    .update(orders)
    .set({ status: "canceled" })
    .where(and(eq(orders.id, orderId), inArray(orders.status, ["pending", "declined"])));
}

/**
 * Confirms the user's quoted plan change `orderId` (quotePlanChange): the provider moves the
 * subscription, then the row, the order and the prorated payment are recorded once
 * (applyPlanChangeInTx). A repeated confirm of a change already made answers it again. Figures older
 * than QUOTE_MINUTES, or for a plan the account no longer has, are not confirmed. A declined
 * proration payment leaves the old plan in place (Stripe's 'error_if_incomplete').
 */
export async function confirmPlanChange(db: Db, userId: string, orderId: string, now = new Date()): Promise<PlanChangeResult> {
  const order = await getPlanChange(db, userId, orderId);
  if (!order) return fail("not_found");
  if (order.status === "paid") return { ok: true, order };
  if (order.status !== "pending" && order.status !== "declined") return fail("expired");
  if (now.getTime() - order.createdAt.getTime() > QUOTE_MINUTES * 60_000) {
    await cancelQuote(db, order.id);
    return fail("expired");
  }
  const d = changeDetails(order);
  const [row] = await db.select().from(userSubscriptions).where(eq(userSubscriptions.id, d.subscriptionRowId)).limit(1);
  if (
    !row ||
    row.status !== "active" ||
    row.cancelAtPeriodEnd ||
    row.providerSubscriptionId !== d.providerSubscriptionId ||
    row.itemKind !== d.from.kind ||
    row.itemId !== d.from.itemId
  ) {
    // A confirm of this same quote that finished meanwhile (a double click, a second tab) moved
    // the row on: the change is made, and that is this confirm's answer too.
    const settled = await getPlanChange(db, userId, orderId);
    if (settled?.status === "paid") return { ok: true, order: settled };
    await cancelQuote(db, order.id);
    return fail("stale");
  }

  if (order.provider === "local") {
    // The local provider "pays" at once, as its checkout page does.
    await db.transaction((tx) =>
      applyPlanChangeInTx(tx as unknown as Db, order.id, {
        payment: { amount: dueNow(d.net), ref: `local:${order.providerSessionId}` },
      }),
    );
  } else {
    let result;
    try {
      result = await updateStripePlan(stripeClient(), order.id, d);
    } catch (error) {
      if (isPaymentRefusal(error)) {
        // The next confirm is a new attempt at Stripe (a new idempotency key), after a card update.
        await db
          .update(orders)
          .set({
            status: "declined",
            details: sql`${orders.details} || ${JSON.stringify({ attempts: (d.attempts ?? 0) + 1 })}::jsonb`,
          })
          .where(and(eq(orders.id, order.id), inArray(orders.status, ["pending", "declined"])));
        log.warn("plan change payment declined", { orderId: order.id, userId });
        return fail("declined");
      }
      log.error("plan change failed at Stripe", { orderId: order.id, userId, error: errorMessage(error) });
      return fail("unavailable");
    }
    const { invoiceId, amountPaid, periodEnd } = result;
    await db.transaction((tx) =>
      applyPlanChangeInTx(tx as unknown as Db, order.id, {
        payment: invoiceId ? { amount: amountPaid, ref: invoiceId } : undefined,
        currentPeriodEnd: periodEnd,
      }),
    );
  }
  const [done] = await db.select().from(orders).where(eq(orders.id, order.id)).limit(1);
  return { ok: true, order: done! };
}
