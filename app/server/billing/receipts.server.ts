import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { preparedPerHandle } from "../db/prepared.server";
import { orders, paymentEvents, type PaymentEventRow } from "../db/schema";
import { orderOptionLabel } from "./order-labels.server";
import { paymentMethodOf, type PaymentMethod } from "./payment-method.server";
import { receiptLines, receiptNumber, refundsByPayment, type ReceiptLine } from "./receipt-lines.server";

/**
 * Receipts: one per payment event (the first payment of an order, each renewal invoice, the capture
 * at the end of a trial), read from payment_events and the order it paid. Only the account's own:
 * every query is scoped by user id, so another account's payment id is simply not found.
 */

export interface ReceiptSummary {
  /** The payment event's id: /dashboard/billing/receipts/:id. */
  id: number;
  number: string;
  paidAt: string;
  itemName: string;
  orderId: string | null;
  /** Cents received. */
  amount: number;
  /** Cents returned from this payment so far. */
  refunded: number;
  currency: string;
}

export interface Receipt extends ReceiptSummary {
  order: { id: string; itemName: string; option: string; kind: string; createdAt: string } | null;
  lines: ReceiptLine[];
  refunds: { amount: number; refundedAt: string }[];
  /** Amount minus refunds, cents. */
  net: number;
  paymentMethod: PaymentMethod;
}

const movementsOf = (db: Db, userId: string) =>
  db
    .select()
    .from(paymentEvents)
    .where(eq(paymentEvents.userId, userId))
    .orderBy(asc(paymentEvents.createdAt), asc(paymentEvents.id));

function summary(payment: PaymentEventRow, itemName: string, refunds: readonly PaymentEventRow[]): ReceiptSummary {
  return {
    id: payment.id,
    number: receiptNumber(payment.id),
    paidAt: payment.createdAt.toISOString(),
    itemName,
    orderId: payment.orderId,
    amount: payment.amount,
    refunded: refunds.reduce((sum, r) => sum + r.amount, 0),
    currency: payment.currency,
  };
}

/** The account's receipts, newest first. */
export async function listReceipts(db: Db, userId: string): Promise<ReceiptSummary[]> {
  const movements = await movementsOf(db, userId);
  const orderIds = [...new Set(movements.flatMap((m) => (m.orderId ? [m.orderId] : [])))];
  const names = new Map(
    orderIds.length === 0
      ? []
      : (
          await db
            .select({ id: orders.id, itemName: orders.itemName })
            .from(orders)
            .where(and(eq(orders.userId, userId), inArray(orders.id, orderIds)))
        ).map((o) => [o.id, o.itemName]),
  );
  const refunds = refundsByPayment(movements);
  return movements
    .filter((m) => m.kind === "payment")
    .map((p) => summary(p, (p.orderId && names.get(p.orderId)) || "Payment", (refunds.get(p.id) ?? []) as PaymentEventRow[]))
    .toReversed();
}

/** One receipt of the account's, or null when `paymentId` is not one of its payments. */
export async function getReceipt(db: Db, userId: string, paymentId: number): Promise<Receipt | null> {
  if (!Number.isSafeInteger(paymentId) || paymentId < 1) return null;
  const [payment] = await db
    .select()
    .from(paymentEvents)
    .where(and(eq(paymentEvents.id, paymentId), eq(paymentEvents.userId, userId), eq(paymentEvents.kind, "payment")))
    .limit(1);
  if (!payment) return null;
  const [order] = payment.orderId
    ? await db
        .select()
        .from(orders)
        .where(and(eq(orders.id, payment.orderId), eq(orders.userId, userId)))
        .limit(1)
    : [];
  const movements = order
    ? await db
        .select()
        .from(paymentEvents)
        .where(and(eq(paymentEvents.userId, userId), eq(paymentEvents.orderId, order.id)))
        .orderBy(asc(paymentEvents.createdAt), asc(paymentEvents.id))
    : [payment];
  const refunds = (refundsByPayment(movements).get(payment.id) ?? []) as PaymentEventRow[];
  const firstPayment = movements.find((m) => m.kind === "payment")?.id === payment.id;
  const base = summary(payment, order?.itemName ?? "Payment", refunds);
  return {
    ...base,
    order: order
      ? {
          id: order.id,
          itemName: order.itemName,
          option: orderOptionLabel(order),
          kind: order.kind,
          createdAt: order.createdAt.toISOString(),
        }
      : null,
    lines: order
      ? receiptLines(order, payment, firstPayment, refunds)
      : [
          { item: "Payment", option: "", amount: payment.amount },
          ...refunds.map((r) => ({ item: "Refund", option: "", amount: -r.amount })),
        ],
    refunds: refunds.map((r) => ({ amount: r.amount, refundedAt: r.createdAt.toISOString() })),
    net: payment.amount - base.refunded,
    paymentMethod: order ? paymentMethodOf(order) : payment.provider === "stripe" ? { kind: "stripe" } : { kind: "unknown" },
  };
}

const paymentsQuery = preparedPerHandle((db) =>
  db
    .select({ id: paymentEvents.id, orderId: paymentEvents.orderId })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.userId, sql.placeholder("userId")), eq(paymentEvents.kind, "payment")))
    .orderBy(asc(paymentEvents.createdAt), asc(paymentEvents.id)),
);

/** The receipts of each of the account's orders (billing history links them), oldest first. */
export async function receiptsByOrder(db: Db, userId: string): Promise<Map<string, { id: number; number: string }[]>> {
  const rows = await paymentsQuery(db).execute({ userId });
  const byOrder = new Map<string, { id: number; number: string }[]>();
  for (const row of rows) {
    if (!row.orderId) continue;
    byOrder.set(row.orderId, [...(byOrder.get(row.orderId) ?? []), { id: row.id, number: receiptNumber(row.id) }]);
  }
  return byOrder;
}
