import type { OrderRow, PaymentEventRow } from "../db/schema";
import { orderOptionLabel } from "./order-labels.server";

/** One line of a receipt, cents: refunds are negative. */
export interface ReceiptLine {
  item: string;
  option: string;
  amount: number;
}

type Movement = Pick<PaymentEventRow, "id" | "kind" | "orderId" | "amount" | "createdAt">;

/** "R-000042": the payment event's id, so a receipt number is unique and never reused. */
export const receiptNumber = (paymentId: number) => `R-${String(paymentId).padStart(6, "0")}`;

/**
 * Which payment each refund returns money from. A refund names its order, not the payment (Stripe's
 * refund of a renewal arrives as the order's refund), so it is put against the latest payment of that
 * order made at or before it, else (recorded out of order) the order's first payment. Refunds without
 * an order, or of an order with no payment, belong to no receipt.
 */
export function refundsByPayment(movements: readonly Movement[]): Map<number, Movement[]> {
  const byPayment = new Map<number, Movement[]>();
  const payments = movements
    .filter((m) => m.kind === "payment")
    .toSorted((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id);
  for (const refund of movements.filter((m) => m.kind === "refund" && m.orderId !== null)) {
    const ofOrder = payments.filter((p) => p.orderId === refund.orderId);
    const target = ofOrder.findLast((p) => p.createdAt.getTime() <= refund.createdAt.getTime()) ?? ofOrder[0];
    if (!target) continue;
    byPayment.set(target.id, [...(byPayment.get(target.id) ?? []), refund]);
  }
  return byPayment;
}

/**
 * What a payment paid for. The order's first payment: the item, and the setup fee as its own line
 * where the order has one (a first payment of the setup fee alone is a subscription's free trial: the
 * item's line is then $0). A later payment of a subscription: the month it pays for. The lines always
 * add up to the amount received; each refund follows as a negative line.
 */
export function receiptLines(
  order: Pick<OrderRow, "itemName" | "kind" | "pricingTab" | "details" | "setupFee" | "trialDays" | "isSubscription">,
  payment: { amount: number },
  firstPayment: boolean,
  refunds: readonly { amount: number }[] = [],
): ReceiptLine[] {
  const option = orderOptionLabel(order);
  const lines: ReceiptLine[] = [];
  if (firstPayment && order.setupFee > 0 && payment.amount >= order.setupFee) {
    const itemAmount = payment.amount - order.setupFee;
    const trial = itemAmount === 0 && order.isSubscription && order.trialDays > 0;
    lines.push({
      item: order.itemName,
      option: trial ? `${option}, ${order.trialDays}-day free trial` : option,
      amount: itemAmount,
    });
    lines.push({ item: "Setup fee", option: "One-time", amount: order.setupFee });
  } else {
    lines.push({
      item: order.itemName,
      option: !firstPayment && order.isSubscription ? `${option}, monthly charge` : option,
      amount: payment.amount,
    });
  }
  for (const refund of refunds) lines.push({ item: "Refund", option: "", amount: -refund.amount });
  return lines;
}
