import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { type OrderRow, orders } from "../db/schema";
import { emailPaymentFailed } from "../mail/event-emails.server";

/**
 * Records a declined payment on the owner's pending order, with the 'payment failed' email in the
 * same transaction (once per order: a second decline finds it 'declined' already); paid orders are
 * never touched.
 */
export async function declineOrder(db: Db, userId: string, sessionId: string): Promise<OrderRow | null> {
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [row] = await tx
      .update(orders)
      .set({ status: "declined" })
      .where(and(eq(orders.providerSessionId, sessionId), eq(orders.userId, userId), eq(orders.status, "pending")))
      .returning();
    if (row) await emailPaymentFailed(tx, row, "declined", "the card was declined");
    return row ?? null;
  });
}
