import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { type OrderRow, orders } from "../db/schema";

/** Records a declined payment on the owner's pending order; paid orders are never touched. */
export async function declineOrder(db: Db, userId: string, sessionId: string): Promise<OrderRow | null> {
  const [row] = await db
    .update(orders)
    .set({ status: "declined" })
    .where(and(eq(orders.providerSessionId, sessionId), eq(orders.userId, userId), eq(orders.status, "pending")))
    .returning();
  return row ?? null;
}
