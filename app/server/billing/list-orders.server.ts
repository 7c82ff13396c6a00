import { and, desc, eq, ne, or, sql } from "drizzle-orm";
import type { EntitledItem } from "~/catalogue/entitlements";
import { APP_TAB_INFO, type AppPricingTab } from "~/catalogue/pricing";
import type { Db } from "../db/client.server";
import { preparedPerHandle } from "../db/prepared.server";
import { type OrderRow, orders } from "../db/schema";
import { SESSION_ID_PATTERN } from "./checkout-paths.server";
import { getEntitlements } from "./entitlements.server";

/** The order of a checkout session, only when it belongs to `userId`. */
export async function getOrderForUser(db: Db, userId: string, sessionId: string): Promise<OrderRow | undefined> {
  if (!SESSION_ID_PATTERN.test(sessionId)) return undefined;
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.providerSessionId, sessionId), eq(orders.userId, userId)))
    .limit(1);
  return row;
}

const ordersQuery = preparedPerHandle((db) =>
  db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, sql.placeholder("userId")), or(ne(orders.kind, "plan-change"), eq(orders.status, "paid"))))
    .orderBy(desc(orders.createdAt))
    .limit(sql.placeholder("limit")),
);

/**
 * The user's orders of every kind (billing history), newest first. A plan change is listed once
 * made: its figures shown and not confirmed were a quote, not a purchase.
 */
export async function listOrders(db: Db, userId: string, limit = 50): Promise<OrderRow[]> {
  return ordersQuery(db).execute({ userId, limit });
}

export interface PurchasedAutomation {
  id: string;
  kind: "app" | "package";
  name: string;
  /** The app's pricing option, or the package's delivery. */
  optionLabel: string;
  amount: number;
  isSubscription: boolean;
  paidAt: string;
}

const paidTime = (i: EntitledItem) => i.paidAt?.getTime() ?? 0;

/** The user's paid apps and packages (what /dashboard/automation lists), newest first: the entitlements' apps and packages. */
export async function listPurchasedAutomations(db: Db, userId: string): Promise<PurchasedAutomation[]> {
  const { apps, packages } = await getEntitlements(db, userId);
  return [...apps, ...packages]
    .sort((a, b) => paidTime(b) - paidTime(a))
    .map((r) => ({
      id: r.id,
      kind: r.kind === "package" ? "package" : "app",
      name: r.name,
      optionLabel: r.kind === "package" ? `Package, ${packageDelivery(r)}` : tabLabel(r.pricingTab),
      amount: r.price,
      isSubscription: r.isSubscription,
      paidAt: (r.paidAt ?? new Date(0)).toISOString(),
    }));
}

/**
 * The delivery a package order was sold with, as recorded on it: 'rush delivery (24-48 hours)' or
 * 'standard delivery (5-7 days)'. Null for any other kind.
 */
export function packageDelivery(order: Pick<OrderRow, "kind" | "pricingTab" | "details">): string | null {
  if (order.kind !== "package") return null;
  const { rush, timeline } = deliverySold(order);
  return `${rush ? "rush" : "standard"} delivery (${timeline})`;
}

/**
 * Whether a package order was sold with rush delivery, and its timeline, as recorded on it (orders
 * from before the timeline was recorded say rush in their pricing tab).
 */
export function deliverySold(order: Pick<OrderRow, "pricingTab" | "details">): { rush: boolean; timeline: string } {
  const rush = order.details.rush === true || order.pricingTab === "rush";
  const timeline = typeof order.details.timeline === "string" ? order.details.timeline : rush ? "24-48 hours" : "5-7 days";
  return { rush, timeline };
}

export function tabLabel(tab: string | null): string {
  return tab && tab in APP_TAB_INFO ? APP_TAB_INFO[tab as AppPricingTab].label : "Standard";
}
