import { and, eq, gt, inArray, isNotNull, notInArray, or, sql } from "drizzle-orm";
import {
  deriveEntitlements,
  type EntitlementRows,
  type Entitlements,
  type OrderFields,
  PLAN_ORDER_KINDS,
  type TrialRow,
} from "~/catalogue/entitlements";
import type { Db } from "../db/client.server";
import { addonLibrary, orders, trialAccess, userAddons, userSubscriptions } from "../db/schema";
import { readTogether } from "../db/read-together.server";

export type { Entitlements } from "~/catalogue/entitlements";

const orderFields = {
  userId: orders.userId,
  id: orders.id,
  provider: orders.provider,
  kind: orders.kind,
  itemId: orders.itemId,
  itemName: orders.itemName,
  pricingTab: orders.pricingTab,
  amount: orders.amount,
  isSubscription: orders.isSubscription,
  trialDays: orders.trialDays,
  setupFee: orders.setupFee,
  status: orders.status,
  subscriptionStatus: orders.subscriptionStatus,
  paidAt: orders.paidAt,
  createdAt: orders.createdAt,
  details: orders.details,
};

export interface ReadOptions {
  /** The caller already holds the trial_access row (the dashboard gate creates it first). */
  trial?: TrialRow | null;
}

/**
 * The rows of several accounts, four reads (in parallel outside a transaction) whatever the number of accounts (the admin
 * customer list asks for a page of them at once). Only rows that can grant something are read:
 * active plan rows, paid orders, active add-ons, and the orders that used an item's free trial.
 */
export async function readEntitlementRows(
  db: Db,
  userIds: string[],
  opts: ReadOptions = {},
): Promise<Map<string, EntitlementRows>> {
  const byUser = new Map<string, EntitlementRows>(
    userIds.map((id) => [id, { trial: opts.trial ?? null, subscriptions: [], orders: [], addons: [] }]),
  );
  if (userIds.length === 0) return byUser;
  const [trials, subscriptions, paidOrders, addons] = await readTogether(db, [
    opts.trial !== undefined ? Promise.resolve([]) : db.select().from(trialAccess).where(inArray(trialAccess.userId, userIds)),
    db
      .select()
      .from(userSubscriptions)
      .where(and(inArray(userSubscriptions.userId, userIds), eq(userSubscriptions.status, "active"))),
    db
      .select(orderFields)
      .from(orders)
      .where(
        and(
          inArray(orders.userId, userIds),
          or(
            and(eq(orders.status, "paid"), notInArray(orders.kind, [...PLAN_ORDER_KINDS])),
            // The trials used (usedTrial), whatever the order's state now.
            and(eq(orders.isSubscription, true), gt(orders.trialDays, 0), isNotNull(orders.paidAt)),
          ),
        ),
      ),
    db
      .select({
        userId: userAddons.userId,
        addonId: userAddons.addonId,
        name: addonLibrary.name,
        // What it was sold at (its order's line), else its list price: a later price change in the
        // console does not change what an owner pays.
        monthlyPrice: sql<number>`coalesce((
          select (a->>'monthlyPrice')::int from ${orders} o,
            jsonb_array_elements(case when jsonb_typeof(o.details->'addons') = 'array' then o.details->'addons' else '[]'::jsonb end) a
          where o.id = ${userAddons.orderId} and a->>'id' = ${userAddons.addonId} limit 1
        ), ${addonLibrary.monthlyPrice})`.mapWith(Number),
        orderId: userAddons.orderId,
      })
      .from(userAddons)
      .innerJoin(addonLibrary, eq(addonLibrary.id, userAddons.addonId))
      .where(and(inArray(userAddons.userId, userIds), eq(userAddons.status, "active"))),
  ]);
  for (const t of trials) byUser.get(t.userId)!.trial = t;
  for (const s of subscriptions) byUser.get(s.userId)!.subscriptions.push(s);
  for (const { userId, ...o } of paidOrders) byUser.get(userId)!.orders.push(o satisfies OrderFields);
  for (const { userId, ...a } of addons) byUser.get(userId)!.addons.push(a);
  return byUser;
}

/**
 * What the account has now: its dashboard trial, plan or scaling tier, add-ons, apps, packages and
 * distributor membership, each with its state, and whether the dashboard is open (and why). Every
 * page that asks "is this account entitled?" asks this.
 */
export async function getEntitlements(db: Db, userId: string, now = new Date(), opts: ReadOptions = {}): Promise<Entitlements> {
  const rows = await readEntitlementRows(db, [userId], opts);
  return deriveEntitlements(rows.get(userId)!, now);
}

/** The same for a page of accounts (the admin customer list), in four reads. */
export async function getEntitlementsOf(db: Db, userIds: string[], now = new Date()): Promise<Map<string, Entitlements>> {
  const rows = await readEntitlementRows(db, [...new Set(userIds)]);
  return new Map([...rows].map(([id, r]) => [id, deriveEntitlements(r, now)]));
}
