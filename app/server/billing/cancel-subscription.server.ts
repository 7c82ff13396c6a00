import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import { PLAN_ORDER_KINDS } from "~/catalogue/entitlements";
import type { Db } from "../db/client.server";
import { orders, userAddons, userSubscriptions } from "../db/schema";
import { emailSubscriptionCancelled } from "../mail/event-emails.server";
import { cancelLocalSubscription } from "./subscriptions.server";

/**
 * What cancelling one of the local provider's subscriptions did: a plan or tier keeps its access to
 * the end of the paid period (as Stripe's portal cancels by default); a subscription that is its
 * order (add-ons, a monthly app or package, the distributor program) has no period on record, so it
 * ends now, with the effects Stripe's deletion of such a subscription has (the order is canceled, its
 * add-ons are no longer owned). 'not_found': not one of the account's running local subscriptions.
 */
export type CancelOutcome = "ends_at_period_end" | "ended" | "not_found";

const REF = /^(plan|order):([A-Za-z0-9-]{1,64})$/;

/** Cancels the account's own local subscription named by `ref` (ManagedSubscription.ref). */
export async function cancelSubscription(db: Db, userId: string, ref: string): Promise<CancelOutcome> {
  const match = REF.exec(ref);
  if (!match) return "not_found";
  const [, kind, id] = match;
  if (kind === "plan") {
    const rowId = Number(id);
    if (!Number.isSafeInteger(rowId)) return "not_found";
    return db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      if (!(await cancelLocalSubscription(tx, userId, rowId))) return "not_found" as const;
      const [row] = await tx.select().from(userSubscriptions).where(eq(userSubscriptions.id, rowId));
      await emailSubscriptionCancelled(tx, userId, {
        ref: `plan:${rowId}`,
        itemName: row?.planName ?? "plan",
        endsAt: row?.currentPeriodEnd ?? null,
      });
      return "ends_at_period_end" as const;
    });
  }
  return db.transaction(async (tx) => {
    const ended = await tx
      .update(orders)
      .set({ status: "canceled", subscriptionStatus: "canceled", subscriptionUpdatedAt: sql`now()` })
      .where(
        and(
          eq(orders.id, id!),
          eq(orders.userId, userId),
          eq(orders.provider, "local"),
          eq(orders.status, "paid"),
          eq(orders.isSubscription, true),
          notInArray(orders.kind, [...PLAN_ORDER_KINDS]),
        ),
      )
      .returning({ id: orders.id, itemName: orders.itemName });
    if (ended.length === 0) return "not_found" as const;
    await emailSubscriptionCancelled(tx as unknown as Db, userId, { ref: `order:${id}`, itemName: ended[0]!.itemName });
    await tx
      .update(userAddons)
      .set({ status: "canceled", updatedAt: sql`now()` })
      .where(and(inArray(userAddons.orderId, [id!]), eq(userAddons.status, "active")));
    return "ended" as const;
  });
}
