import { and, desc, eq, sql } from "drizzle-orm";
import type { Stripe } from "stripe";
import type { RefundCode, RefundReason } from "~/lib/refund-codes";
import type { Db } from "../db/client.server";
import { type OrderRow, orders, paymentEvents } from "../db/schema";
import { errorMessage, log } from "../log.server";
import { recordRefund } from "./record-payment.server";
import { idOf } from "./stripe/ids.server";
import { applyChargeRefunds, endWhenWhollyRefunded } from "./stripe/refund-events.server";

/**
 * An operator's refund from /admin (docs/decisions: disputes and admin refunds). The provider returns
 * the money; the state then converges through the path the provider's own refund report takes, so a
 * refund made here and its later charge.refunded webhook record it once (the refund id is the
 * payment event's unique reference), reverse the referrer's commission by the same rule and end the
 * order once its refunds cover everything paid for it.
 */
export interface RefundOrderInput {
  orderId: string;
  /** Cents, at most what is left unrefunded on the order. */
  amount: number;
  reason: RefundReason;
  /** Free text; required when the reason is 'other' (checked by the caller). */
  note: string;
  /** Unique per confirmed refund (the form's): a repeated submission refunds once. */
  key: string;
  operatorId: string;
  /**
   * Called inside the transaction that records a refund the provider accepted (the operator audit
   * entry), with the cents refunded and whether the order ended: it commits with the refund or not at all.
   */
  onRecorded?: (tx: Db, refunded: number, ended: boolean) => Promise<void>;
}

export type RefundOrderResult =
  | { ok: true; refunded: number; ended: boolean }
  | {
      ok: false;
      code: Exclude<RefundCode, "invalid_input" | "note_required" | "confirm_required" | "rate_limited">;
      refunded?: number;
    };

/** Orders in these states took money that can be returned ('canceled': a subscription that ended). */
const REFUNDABLE_STATUSES = new Set(["paid", "canceled"]);

/** Cents paid for the order and returned so far (refunds, lost disputes). */
async function moneyOf(db: Db, orderId: string) {
  const [totals] = await db
    .select({
      paid: sql<string>`coalesce(sum(${paymentEvents.amount}) filter (where ${paymentEvents.kind} = 'payment'), 0)`,
      refunded: sql<string>`coalesce(sum(${paymentEvents.amount}) filter (where ${paymentEvents.kind} = 'refund'), 0)`,
    })
    .from(paymentEvents)
    .where(eq(paymentEvents.orderId, orderId));
  const paid = Number(totals?.paid ?? 0);
  const refunded = Number(totals?.refunded ?? 0);
  return { paid, refunded, left: Math.max(0, paid - refunded) };
}

/** Why `amount` cannot be refunded from `order` now, or null when it can. */
function refusal(order: OrderRow | undefined, left: number, amount: number) {
  if (!order) return "not_found" as const;
  if (!REFUNDABLE_STATUSES.has(order.status) || left <= 0) return "not_refundable" as const;
  if (amount > left) return "amount_too_high" as const;
  return null;
}

export async function refundOrder(db: Db, input: RefundOrderInput, stripe: () => Stripe): Promise<RefundOrderResult> {
  const [order] = await db.select().from(orders).where(eq(orders.id, input.orderId)).limit(1);
  const refused = refusal(order, order ? (await moneyOf(db, order.id)).left : 0, input.amount);
  if (refused || !order) return { ok: false, code: refused ?? "not_found" };
  const result =
    order.provider === "stripe" ? await refundThroughStripe(db, stripe(), order, input) : await refundLocally(db, order, input);
  log.info("order refund by an operator", {
    orderId: order.id,
    userId: order.userId,
    provider: order.provider,
    asked: input.amount,
    refunded: result.ok ? result.refunded : (result.refunded ?? 0),
    outcome: result.ok ? "refunded" : result.code,
    reason: input.reason,
    note: input.note || undefined,
    operatorId: input.operatorId,
  });
  return result;
}

/**
 * The local provider holds no money: the refund is recorded as its report would be, in one
 * transaction that locks the order, so two refunds at once cannot together return more than was paid.
 */
async function refundLocally(db: Db, order: OrderRow, input: RefundOrderInput): Promise<RefundOrderResult> {
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [locked] = await tx.select().from(orders).where(eq(orders.id, order.id)).for("update");
    const providerRef = `local-refund:${input.key}`;
    const [already] = await tx
      .select({ id: paymentEvents.id })
      .from(paymentEvents)
      .where(eq(paymentEvents.providerRef, providerRef))
      .limit(1);
    // The same confirmed refund submitted again: done already.
    if (already) return { ok: true, refunded: 0, ended: locked?.status === "refunded" };
    const refused = refusal(locked, (await moneyOf(tx, order.id)).left, input.amount);
    if (refused) return { ok: false, code: refused };
    await recordRefund(tx, {
      userId: order.userId,
      orderId: order.id,
      amount: input.amount,
      provider: order.provider,
      providerRef,
      currency: order.currency,
    });
    const ended = await endWhenWhollyRefunded(tx, order.id);
    await input.onRecorded?.(tx, input.amount, ended);
    return { ok: true, refunded: input.amount, ended };
  });
}

/**
 * Stripe refunds charges, so the amount is taken from the order's payments newest first (a
 * subscription's renewals are separate charges), each no more than its charge has left at Stripe.
 * Each call carries an idempotency key of the confirmed refund and the charge, so a retried request
 * or a repeated submission never refunds twice, and Stripe refuses more than a charge has left,
 * so concurrent refunds cannot return more than was paid. What Stripe accepted is then recorded
 * through applyChargeRefunds, as charge.refunded does, even when a later call failed.
 */
async function refundThroughStripe(db: Db, stripe: Stripe, order: OrderRow, input: RefundOrderInput): Promise<RefundOrderResult> {
  const payments = await db
    .select({ providerRef: paymentEvents.providerRef })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.orderId, order.id), eq(paymentEvents.kind, "payment"), eq(paymentEvents.provider, "stripe")))
    .orderBy(desc(paymentEvents.id));
  const made: Stripe.Refund[] = [];
  let left = input.amount;
  let failed = false;
  try {
    for (const payment of payments) {
      if (left <= 0) break;
      const paymentIntent = await paymentIntentOf(stripe, payment.providerRef);
      if (!paymentIntent) continue;
      const intent = await stripe.paymentIntents.retrieve(paymentIntent, { expand: ["latest_charge"] });
      const charge = typeof intent.latest_charge === "object" ? intent.latest_charge : null;
      if (!charge || charge.disputed) continue;
      const open = charge.amount - charge.amount_refunded;
      if (open <= 0) continue;
      const part = Math.min(left, open);
      const refund = await stripe.refunds.create(
        {
          payment_intent: paymentIntent,
          amount: part,
          ...(input.reason === "other" ? {} : { reason: input.reason }),
          metadata: { order_id: order.id, operator_id: input.operatorId, reason: input.reason, note: input.note.slice(0, 500) },
        },
        { idempotencyKey: `admin-refund-${input.key}-${paymentIntent}` },
      );
      if (refund.status === "succeeded" || refund.status === "pending") {
        made.push(refund);
        left -= refund.amount;
      }
    }
  } catch (error) {
    failed = true;
    log.warn("stripe refund failed", { orderId: order.id, error: errorMessage(error) });
  }
  const refunded = input.amount - left;
  let ended = false;
  if (made.length > 0) {
    await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      await applyChargeRefunds(tx, { userId: order.userId, orderId: order.id }, made);
      const [after] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, order.id));
      ended = after?.status === "refunded";
      await input.onRecorded?.(tx, refunded, ended);
    });
  }
  if (failed) return { ok: false, code: "provider_failed", refunded };
  if (left > 0) return { ok: false, code: "partial", refunded };
  return { ok: true, refunded, ended };
}

/** The payment intent behind a recorded Stripe payment: its own id, or the one that paid its invoice. */
async function paymentIntentOf(stripe: Stripe, providerRef: string): Promise<string | null> {
  if (providerRef.startsWith("pi_")) return providerRef;
  if (!providerRef.startsWith("in_")) return null;
  const payments = await stripe.invoicePayments.list({ invoice: providerRef, limit: 10 });
  const paid = payments.data.find((p) => p.status === "paid" && p.payment.type === "payment_intent");
  return paid ? idOf(paid.payment.payment_intent as string | { id: string } | null | undefined) : null;
}
