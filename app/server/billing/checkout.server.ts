import { randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { APP_TAB_INFO, quoteApp, type AppPricingTab } from "~/catalogue/pricing";
import { getApp } from "../catalogue/apps.server";
import type { Db } from "../db/client.server";
import { orders, type OrderRow } from "../db/schema";

/**
 * Checkout (DESIGN.md section 4): the browser says *what* it buys; the server computes the amount
 * from the catalogue, inserts a pending order, then creates the provider session. Fulfilment is one
 * conditional UPDATE, so a repeated or concurrent completion marks the order paid exactly once.
 * The only provider today is the built-in local one (docs/decisions/0007-checkout-local-provider.md).
 */

export type CheckoutErrorCode = "invalid_app";

export class CheckoutError extends Error {
  constructor(
    readonly code: CheckoutErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "CheckoutError";
  }
}

/** Path of the local provider's hosted checkout page for one session. */
export const localCheckoutUrl = (sessionId: string) => `/checkout/local/${sessionId}`;

/** An unguessable session id (192 random bits), in the shape payment providers use. */
export function newLocalSessionId(): string {
  return `cs_local_${randomBytes(24).toString("base64url")}`;
}

export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;

export interface CheckoutResult {
  url: string;
  sessionId: string;
  orderId: string;
}

/** Starts the checkout of one app on one pricing tab for `user`. Unknown or inactive app: 'Invalid app data'. */
export async function createAppCheckout(
  db: Db,
  user: { id: string },
  input: { appId: number; tab: AppPricingTab },
): Promise<CheckoutResult> {
  const app = await getApp(db, input.appId);
  if (!app) throw new CheckoutError("invalid_app", "Invalid app data");
  const quote = quoteApp(app, input.tab);
  const sessionId = newLocalSessionId();
  const id = randomUUID();
  await db.insert(orders).values({
    id,
    userId: user.id,
    kind: "app",
    itemId: String(app.id),
    itemName: app.name,
    pricingTab: input.tab,
    amount: quote.amount,
    currency: "usd",
    isSubscription: quote.isSubscription,
    trialDays: quote.trialDays,
    status: "pending",
    provider: "local",
    providerSessionId: sessionId,
  });
  return { url: localCheckoutUrl(sessionId), sessionId, orderId: id };
}

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

/**
 * Marks the session's order paid, once: the conditional UPDATE is atomic, so of any number of
 * repeated or concurrent calls exactly one returns the row; the others return null and change nothing.
 * A declined order can still be paid (the customer retries with another card on the same session).
 * The caller has checked who may complete the session (the owner on the local page; a signed
 * provider event for Stripe).
 */
export async function fulfilOrder(db: Db, sessionId: string): Promise<OrderRow | null> {
  const [row] = await db
    .update(orders)
    .set({ status: "paid", paidAt: sql`now()` })
    .where(and(eq(orders.providerSessionId, sessionId), inArray(orders.status, ["pending", "declined"])))
    .returning();
  return row ?? null;
}

/** Records a declined payment on the owner's pending order; paid orders are never touched. */
export async function declineOrder(db: Db, userId: string, sessionId: string): Promise<OrderRow | null> {
  const [row] = await db
    .update(orders)
    .set({ status: "declined" })
    .where(and(eq(orders.providerSessionId, sessionId), eq(orders.userId, userId), eq(orders.status, "pending")))
    .returning();
  return row ?? null;
}

export interface PurchasedApp {
  id: string;
  name: string;
  tab: string;
  tabLabel: string;
  amount: number;
  isSubscription: boolean;
  paidAt: string;
}

/** The user's paid app orders, newest first. */
export async function listPaidAppOrders(db: Db, userId: string): Promise<PurchasedApp[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.kind, "app"), eq(orders.status, "paid")))
    .orderBy(desc(orders.paidAt));
  return rows.map((r) => ({
    id: r.id,
    name: r.itemName,
    tab: r.pricingTab ?? "base",
    tabLabel: tabLabel(r.pricingTab),
    amount: r.amount,
    isSubscription: r.isSubscription,
    paidAt: (r.paidAt ?? r.createdAt).toISOString(),
  }));
}

export function tabLabel(tab: string | null): string {
  return tab && tab in APP_TAB_INFO ? APP_TAB_INFO[tab as AppPricingTab].label : "Standard";
}
