import { and, eq, gt, isNotNull, notInArray, or, sql } from "drizzle-orm";
import {
  deriveEntitlements,
  type EntitlementRows,
  type Entitlements,
  type AddonRow,
  type OrderFields,
  PLAN_ORDER_KINDS,
} from "~/catalogue/entitlements";
import type { Db } from "../db/client.server";
import { jsonRows, rowFromJson, tableRowFromJson } from "../db/json-rows.server";
import { preparedPerHandle } from "../db/prepared.server";
import { addonLibrary, orders, trialAccess, userAddons, userSubscriptions } from "../db/schema";

export type { Entitlements } from "~/catalogue/entitlements";

const orderFields = {
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

/** The rows of one account the derivation reads; the trial as stored (the dashboard gate returns it). */
export interface AccountRows extends EntitlementRows {
  trial: typeof trialAccess.$inferSelect | null;
}

const owner = sql`wanted.user_id`;
/** An active add-on's row; its price is selected by the expression below, decoded as the list price column. */
const addonFields = {
  addonId: userAddons.addonId,
  name: addonLibrary.name,
  monthlyPrice: addonLibrary.monthlyPrice,
  orderId: userAddons.orderId,
};

/**
 * The rows of several accounts in one statement, whatever the number of accounts (the admin
 * customer list asks for a page of them at once; every dashboard page asks for one). Only rows that
 * can grant something are read: active plan rows, paid orders, active add-ons, and the orders that
 * used an item's free trial; and the dashboard trial's row (null until the gate first creates it).
 *
 * The wanted accounts are one array parameter, so the statement's text never changes: it is built
 * once per database handle (preparedPerHandle) instead of on every page.
 */
const entitlementRowsQuery = preparedPerHandle((db) => {
  const trials = db.select().from(trialAccess).where(eq(trialAccess.userId, owner));
  const subscriptions = db
    .select()
    .from(userSubscriptions)
    .where(and(eq(userSubscriptions.userId, owner), eq(userSubscriptions.status, "active")));
  const paidOrders = db
    .select(orderFields)
    .from(orders)
    .where(
      and(
        eq(orders.userId, owner),
        or(
          and(eq(orders.status, "paid"), notInArray(orders.kind, [...PLAN_ORDER_KINDS])),
          // The trials used (usedTrial), whatever the order's state now.
          and(eq(orders.isSubscription, true), gt(orders.trialDays, 0), isNotNull(orders.paidAt)),
        ),
      ),
    );
  const addons = db
    .select({
      ...addonFields,
      // What it was sold at (its order's line), else its list price: a later price change in the
      // console does not change what an owner pays.
      monthlyPrice: sql<number>`coalesce((
        select (a->>'monthlyPrice')::int from ${orders} o,
          jsonb_array_elements(case when jsonb_typeof(o.details->'addons') = 'array' then o.details->'addons' else '[]'::jsonb end) a
        where o.id = ${userAddons.orderId} and a->>'id' = ${userAddons.addonId} limit 1
      ), ${addonLibrary.monthlyPrice})`.as(addonLibrary.monthlyPrice.name),
    })
    .from(userAddons)
    .innerJoin(addonLibrary, eq(addonLibrary.id, userAddons.addonId))
    .where(and(eq(userAddons.userId, owner), eq(userAddons.status, "active")));
  return db
    .select({
      userId: sql<string>`wanted.user_id`,
      trials: jsonRows(trials),
      subscriptions: jsonRows(subscriptions),
      orders: jsonRows(paidOrders),
      addons: jsonRows(addons),
    })
    .from(sql`unnest(${sql.placeholder("userIds")}::text[]) as wanted(user_id)`);
});

export async function readEntitlementRows(db: Db, userIds: string[]): Promise<Map<string, AccountRows>> {
  const byUser = new Map<string, AccountRows>(
    userIds.map((id) => [id, { trial: null, subscriptions: [], orders: [], addons: [] }]),
  );
  if (userIds.length === 0) return byUser;
  const rows = await entitlementRowsQuery(db).execute({ userIds: [...byUser.keys()] });
  for (const row of rows) {
    byUser.set(row.userId, {
      trial: row.trials.length > 0 ? tableRowFromJson(trialAccess, row.trials[0]) : null,
      subscriptions: row.subscriptions.map((s) => tableRowFromJson(userSubscriptions, s)),
      orders: row.orders.map((o) => rowFromJson<OrderFields>(orderFields, o)),
      addons: row.addons.map((a) => rowFromJson<AddonRow>(addonFields, a)),
    });
  }
  return byUser;
}

/**
 * What the account has now: its dashboard trial, plan or scaling tier, add-ons, apps, packages and
 * distributor membership, each with its state, and whether the dashboard is open (and why). Every
 * page that asks "is this account entitled?" asks this.
 */
export async function getEntitlements(db: Db, userId: string, now = new Date()): Promise<Entitlements> {
  const rows = await readEntitlementRows(db, [userId]);
  return deriveEntitlements(rows.get(userId)!, now);
}

/** The same for a page of accounts (the admin customer list), in one read. */
export async function getEntitlementsOf(db: Db, userIds: string[], now = new Date()): Promise<Map<string, Entitlements>> {
  const rows = await readEntitlementRows(db, [...new Set(userIds)]);
  return new Map([...rows].map(([id, r]) => [id, deriveEntitlements(r, now)]));
}
