import { and, eq, ne, sql } from "drizzle-orm";
import { BILLING_PLANS } from "~/catalogue/plans";
import type { Db } from "../db/client.server";
import { userSubscriptions, type OrderRow } from "../db/schema";

/**
 * The account's plan (spec section 3 user_subscriptions): a billing plan (Basic/Pro/Enterprise), a
 * scaling tier or a member plan (Growth/Pro). One is active at a time: buying another replaces it.
 */

export const MONTH_MS = 30 * 24 * 60 * 60 * 1000;

export async function applySubscriptionEntitlement(
  tx: Db,
  order: OrderRow,
  opts: { providerSubscriptionId: string | null; currentPeriodEnd: Date | null },
): Promise<{ replaced: { id: number; provider: string | null }[] }> {
  const providerSubscriptionId = opts.providerSubscriptionId ?? order.providerSessionId;
  const plan = order.kind === "plan" ? BILLING_PLANS.find((p) => p.type === order.itemId) : undefined;
  const contacts = order.details.contacts;
  const replaced = await tx
    .update(userSubscriptions)
    .set({ status: "replaced", updatedAt: sql`now()` })
    .where(
      and(
        eq(userSubscriptions.userId, order.userId),
        eq(userSubscriptions.status, "active"),
        ne(userSubscriptions.providerSubscriptionId, providerSubscriptionId),
      ),
    )
    .returning({ id: userSubscriptions.id, provider: userSubscriptions.provider });
  const values = {
    userId: order.userId,
    planName: plan ? plan.name : order.itemName,
    // 'scaling', or 'member' for the trial chooser's Growth and Pro (member-plans.server.ts).
    planType: plan ? plan.type : order.kind,
    status: "active",
    monthlyPrice: order.amount,
    currentPeriodEnd:
      opts.currentPeriodEnd ?? new Date(Date.now() + (order.trialDays > 0 ? order.trialDays * 86_400_000 : MONTH_MS)),
    reachLimit: typeof contacts === "number" ? contacts : null,
    orderId: order.id,
    itemKind: order.kind,
    itemId: order.itemId,
    provider: order.provider,
    providerSubscriptionId,
  };
  await tx
    .insert(userSubscriptions)
    .values(values)
    .onConflictDoUpdate({ target: userSubscriptions.providerSubscriptionId, set: { ...values, updatedAt: sql`now()` } });
  return { replaced };
}

/**
 * Local provider: cancel at the end of the paid period (the row stays active until then), the
 * user's active plan or tier, or only the row `subscriptionId` when given (Manage Billing names it).
 * Returns false when there is no such active subscription. Stripe subscriptions are cancelled
 * through the customer portal, and the provider's event updates the row.
 */
export async function cancelLocalSubscription(db: Db, userId: string, subscriptionId?: number): Promise<boolean> {
  const rows = await db
    .update(userSubscriptions)
    .set({ cancelAtPeriodEnd: true, updatedAt: sql`now()` })
    .where(
      and(
        eq(userSubscriptions.userId, userId),
        eq(userSubscriptions.status, "active"),
        eq(userSubscriptions.provider, "local"),
        subscriptionId === undefined ? undefined : eq(userSubscriptions.id, subscriptionId),
      ),
    )
    .returning({ id: userSubscriptions.id });
  return rows.length > 0;
}

/**
 * SQL condition: the row grants access now (active, and not past the end of a cancelled period).
 * The same rule as subscriptionGrantsAccess in app/catalogue/entitlements.ts, for queries that
 * must filter in SQL; pages ask getEntitlements.
 */
export const grantsAccessNow = sql`(${userSubscriptions.status} = 'active' and not (${userSubscriptions.cancelAtPeriodEnd} and ${userSubscriptions.currentPeriodEnd} < now()))`;
