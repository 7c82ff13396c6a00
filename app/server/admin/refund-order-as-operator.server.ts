import { eq } from "drizzle-orm";
import type { Stripe } from "stripe";
import type { Db } from "../db/client.server";
import { orders } from "../db/schema";
import { refundOrder, type RefundOrderInput, type RefundOrderResult } from "../billing/refund-order.server";
import { recordAudit } from "./audit.server";
import { moneyOfOrders } from "./tables/orders.server";

/**
 * An operator's refund with its audit entry: the entry is written in the transaction that records
 * the refund, with the order's status and money before and after.
 */
export async function refundOrderAsOperator(
  db: Db,
  operator: { id: string; email: string },
  input: Omit<RefundOrderInput, "operatorId" | "onRecorded">,
  stripe: () => Stripe,
): Promise<RefundOrderResult> {
  const [order] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, input.orderId)).limit(1);
  const before = order ? { status: order.status, ...(await moneyOfOrders(db, [input.orderId]))(input.orderId) } : null;
  return refundOrder(
    db,
    {
      ...input,
      operatorId: operator.id,
      onRecorded: async (tx, refunded, ended) => {
        const [now] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, input.orderId));
        const money = (await moneyOfOrders(tx, [input.orderId]))(input.orderId);
        await recordAudit(tx, {
          operator,
          action: "order.refund",
          subjectType: "order",
          subjectId: input.orderId,
          before,
          after: {
            status: now?.status ?? null,
            ...money,
            amount: refunded,
            ended,
            reason: input.reason,
            ...(input.note ? { note: input.note } : {}),
          },
        });
      },
    },
    stripe,
  );
}
