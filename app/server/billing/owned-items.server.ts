import type { Db } from "../db/client.server";
import { hadTrial } from "~/catalogue/entitlements";
import type { OrderRow } from "../db/schema";
import { getEntitlements } from "./entitlements.server";

/**
 * Whether the account holds the distributor program: a paid distributor order whose subscription
 * has not ended (the entitlements' distributor). Like an owned add-on, a past-due or paused
 * membership still counts (its payment is fixed in the billing portal, not by buying the program
 * again).
 */
export async function ownsDistributorProgram(db: Db, userId: string): Promise<boolean> {
  return (await getEntitlements(db, userId)).distributor !== null;
}

/**
 * A pending order as paying it now would record it: without its trial when another order of the
 * same item has had one since this checkout was opened (withoutRepeatedTrial drops it at
 * fulfilment), so the test checkout page shows what is really due.
 */
export async function asItWouldBePaid(db: Db, order: OrderRow): Promise<OrderRow> {
  if (order.status === "paid" || !order.isSubscription || order.trialDays === 0) return order;
  return hadTrial(await getEntitlements(db, order.userId), order.kind, order.itemId, order.id)
    ? { ...order, trialDays: 0 }
    : order;
}
